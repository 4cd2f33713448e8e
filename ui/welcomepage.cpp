// SPDX-License-Identifier: Apache-2.0
#include "welcomepage.h"

#include "lab/results/humantext.h"
#include "lab/spec/specsource.h"

#include <QCommandLinkButton>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace servelab::ui {

namespace {

// A preset's description as a button: what it reproduces (up to the first ": ") as the title,
// the rest below it, where it wraps, with the name `run` takes and how many points it measures.
QCommandLinkButton *presetButton(const lab::SpecSource::Preset &preset, const QString &title)
{
    const QString &text = preset.description;
    const qsizetype colon = text.indexOf(QStringLiteral(": "));
    const bool split = title.isEmpty() && colon > 0;
    lab::SpecSource source;
    QString error;
    int points = 0;
    if (lab::SpecSource::read(preset.name, &source, &error) && source.runs())
        for (const auto &t : source.spec.expanded())
            points += int(t.sizes.size()) * source.spec.repetitions;
    QString below = split ? text.mid(colon + 2) : title.isEmpty() ? QString() : text;
    below += (below.isEmpty() ? QString() : QStringLiteral(" · ")) +
             QObject::tr("%1 · %2").arg(
                 preset.name, lab::countText(points, QObject::tr("point"), QObject::tr("points")));
    auto *button = new QCommandLinkButton(!title.isEmpty() ? title
                                          : split          ? text.left(colon)
                                                           : text,
                                          below);
    button->setToolTip(text);
    return button;
}

} // namespace

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
        auto *run = presetButton(preset, tr("Run the default comparison now"));
        run->setObjectName(QStringLiteral("runDefault"));
        connect(run, &QCommandLinkButton::clicked, this,
                [this, name = preset.name] { Q_EMIT runRequested(name); });
        layout->addWidget(run);
    }
    layout->addWidget(new QLabel(tr("<b>The seeds' experiments</b> (open in the wizard)")));
    for (const auto &preset : presets) {
        if (preset.name == QLatin1StringView(defaultPreset))
            continue;
        auto *open = presetButton(preset, {});
        open->setObjectName(QStringLiteral("preset-") + preset.name);
        connect(open, &QCommandLinkButton::clicked, this,
                [this, name = preset.name] { Q_EMIT openRequested(name); });
        layout->addWidget(open);
    }
    layout->addStretch();
    auto *scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the descriptions wrap
    scroll->setFrameShape(QFrame::NoFrame);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

} // namespace servelab::ui
