// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "servelab_config.h"

#if HAVE_KSYNTAXHIGHLIGHTING
namespace KSyntaxHighlighting {
class Repository;
}

namespace servelab::ui {

// KDE's syntax definitions and themes, with ServeLab's own (the run log) added: loaded once,
// alive as long as the highlighters that use it.
KSyntaxHighlighting::Repository &syntaxRepository();

} // namespace servelab::ui
#endif
