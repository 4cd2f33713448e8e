// SPDX-License-Identifier: Apache-2.0
#include "specfield.h"

#include <algorithm>
#include <limits>

namespace servelab::lab {

QString SpecField::name(FieldNaming naming) const
{
    switch (naming) {
    case FieldNaming::Spec: return QString::fromLatin1(path);
    case FieldNaming::Flag:
        if (flag)
            return (qstrlen(flag) == 1 ? QStringLiteral("-") : QStringLiteral("--")) +
                   QString::fromLatin1(flag);
        return QString::fromLatin1(path);
    case FieldNaming::Label: break;
    }
    return QString::fromLatin1(label);
}

QString SpecField::wants() const
{
    return QStringLiteral("wants a whole number from %1 to %2").arg(low).arg(high);
}

QString SpecField::problem(qint64 value, FieldNaming naming) const
{
    if (contains(value))
        return {};
    return QStringLiteral("%1%2%3, not '%4'")
        .arg(name(naming), naming == FieldNaming::Spec ? QStringLiteral(": ") : QStringLiteral(" "),
             wants())
        .arg(value);
}

int SpecField::spinLow(int per) const
{
    return int((low + per - 1) / per);
}

int SpecField::spinHigh(int per) const
{
    return int(std::min<qint64>(high / per, std::numeric_limits<int>::max()));
}

} // namespace servelab::lab
