// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace servelab::lab {

// What a target of an experiment is, read once from its text (SweepSpec::target):
// "builtin" (a built-in server in the target's mode), a template name ("nginx"), a
// "command:<line>" ServeLab starts, or a "url:http://…" server already running.
enum class TargetKind
{
    Builtin,
    Template,
    Command,
    Url
};

TargetKind targetKindOf(const QString &target);
// What follows "command:" or "url:"; the template's name; "builtin".
QString targetValue(const QString &target);

} // namespace servelab::lab
