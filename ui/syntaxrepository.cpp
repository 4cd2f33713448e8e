// SPDX-License-Identifier: Apache-2.0
#include "syntaxrepository.h"

#if HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Repository>

namespace servelab::ui {

KSyntaxHighlighting::Repository &syntaxRepository()
{
    static KSyntaxHighlighting::Repository repository;
    static const bool ours = [] {
        repository.addCustomSearchPath(QStringLiteral(":/servelab")); // syntax/servelab-log.xml
        return true;
    }();
    Q_UNUSED(ours);
    return repository;
}

} // namespace servelab::ui
#endif
