// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>

class QJsonValue;

namespace servelab::lab {

class SpecReader;

// A spec's "rates": [1000, 2000, ...] or {"from": 1000, "to": 10000, "step": 1000}, each in the
// rate's range, each once, in the order given; problems go to `r` under `at`.
QList<qint64> readRateList(SpecReader &r, const QJsonValue &value, const QString &at);

} // namespace servelab::lab
