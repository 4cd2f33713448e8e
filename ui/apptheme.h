// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace servelab::ui {

// The look of the whole application, before its first window: "system" (the desktop's palette,
// dark or light as the platform theme gives it), "light" or "dark" (Qt's Fusion style with a
// palette of that kind, for a desktop that gives none, or to see the other). Charts, the JSON
// and log highlighting follow whichever palette results. False with *error for another name.
bool applyTheme(const QString &name, QString *error);

} // namespace servelab::ui
