// SPDX-License-Identifier: Apache-2.0
#include "welcomepage.h"

#include "lab/spec/specsource.h"

#include <QCommandLinkButton>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace servelab::ui {

WelcomePage::WelcomePage(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("welcome"));
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    auto *intro = new QLabel(
        tr("<h2>Welcome to ServeLab</h2><p>ServeLab runs static file servers, loads them as "
           "<code>ab</code>, <code>wrk</code>, <code>wrk2</code> or faban would, and draws "
           "KiB/s by file size, the server's descriptors, threads and latency while it runs. "
           "Every run is kept in the Run history below. Start with the comparison the mailing "
           "list threads made, or with one of their experiments. F1 explains every tab.</p>"));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    const QList<lab::SpecSource::Preset> presets = lab::SpecSource::presets();
    for (const auto &preset : presets) {
        if (preset.name != QLatin1StringView(defaultPreset))
            continue;
        auto *run = new QCommandLinkButton(tr("Run the default comparison (about a minute and a half)"),
                                           preset.description);
        run->setObjectName(QStringLiteral("runDefault"));
        connect(run, &QCommandLinkButton::clicked, this,
                [this, name = preset.name] { Q_EMIT runRequested(name); });
        layout->addWidget(run);
    }
    layout->addWidget(new QLabel(tr("<b>The seeds' experiments</b> (open in the wizard)")));
    for (const auto &preset : presets) {
        if (preset.name == QLatin1StringView(defaultPreset))
            continue;
        auto *open = new QCommandLinkButton(preset.description, preset.name);
        open->setObjectName(QStringLiteral("preset-") + preset.name);
        connect(open, &QCommandLinkButton::clicked, this,
                [this, name = preset.name] { Q_EMIT openRequested(name); });
        layout->addWidget(open);
    }
    layout->addStretch();
    auto *scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

} // namespace servelab::ui
