// SPDX-License-Identifier: Apache-2.0
#include "experimentname.h"

#include "experimentspec.h"
#include "sizelist.h"

#include <QStringList>

namespace servelab::lab {

QString experimentName(const ExperimentSpec &spec)
{
    constexpr qsizetype named = 3;
    QStringList targets;
    for (const SweepSpec &t : spec.targets)
        if (!targets.contains(t.label()))
            targets << t.label();
    QString name = targets.mid(0, named).join(QStringLiteral(", "));
    if (targets.size() > named)
        name += QStringLiteral(" and %1 more").arg(targets.size() - named);
    if (!spec.targets.isEmpty())
        name += QStringLiteral(" over ") + formatSizeList(spec.targets.first().sizes);
    QStringList loads;
    for (const ClientLoad &load : spec.loads)
        loads << load.name;
    if (loads.size() > 1)
        name += QStringLiteral(" under ") + loads.join(QStringLiteral(", "));
    return name;
}

} // namespace servelab::lab
