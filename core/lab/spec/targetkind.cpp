// SPDX-License-Identifier: Apache-2.0
#include "targetkind.h"

namespace servelab::lab {

namespace {

constexpr QStringView commandPrefix = u"command:";
constexpr QStringView urlPrefix = u"url:";

} // namespace

TargetKind targetKindOf(const QString &target)
{
    if (target == u"builtin")
        return TargetKind::Builtin;
    if (target.startsWith(commandPrefix))
        return TargetKind::Command;
    if (target.startsWith(urlPrefix))
        return TargetKind::Url;
    return TargetKind::Template;
}

QString targetValue(const QString &target)
{
    switch (targetKindOf(target)) {
    case TargetKind::Command: return target.mid(commandPrefix.size());
    case TargetKind::Url: return target.mid(urlPrefix.size());
    case TargetKind::Builtin:
    case TargetKind::Template: break;
    }
    return target;
}

} // namespace servelab::lab
