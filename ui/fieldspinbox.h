// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSpinBox>

namespace servelab::lab {
struct SpecField;
}

namespace servelab::ui {

// A spin box for one of lab::SpecFields: its range and first value are the row's, so the
// form and the wizard take exactly what the spec and `load` take. `per` shows the field in a
// larger unit (1000: a field kept in ms, shown in seconds).
class FieldSpinBox : public QSpinBox
{
    Q_OBJECT

public:
    explicit FieldSpinBox(const lab::SpecField &field, int per = 1, QWidget *parent = nullptr);

    // Shows `value` (in the field's unit), clamped to what the box can show.
    void setFieldValue(qint64 value);

private:
    int m_per;
};

} // namespace servelab::ui
