// SPDX-License-Identifier: Apache-2.0
#include "fieldspinbox.h"

#include "lab/spec/specfield.h"

#include <algorithm>

namespace servelab::ui {

FieldSpinBox::FieldSpinBox(const lab::SpecField &field, int per, QWidget *parent)
    : QSpinBox(parent), m_per(per)
{
    setRange(field.spinLow(per), field.spinHigh(per));
    setFieldValue(field.fallback);
}

void FieldSpinBox::setFieldValue(qint64 value)
{
    setValue(int(std::clamp<qint64>(value / m_per, minimum(), maximum())));
}

} // namespace servelab::ui
