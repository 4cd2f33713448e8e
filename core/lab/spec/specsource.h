// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "experimentspec.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace servelab::lab {

// An experiment's spec as a user names it: a file, or a built-in preset by its name
// (`servelab-cli presets` lists them). Read and checked once, the same way for `servelab-cli
// run`, `servelab --spec` and the window's Open and Presets.
struct SpecSource
{
    QString path;         // what was read: the file, or the preset's resource
    QByteArray text;      // as read
    ExperimentSpec spec;  // named after the file when the spec names itself not
    QStringList problems; // why it cannot run, each with its place; empty: it can

    bool isPreset() const { return path.startsWith(u':'); }
    bool runs() const { return problems.isEmpty(); }

    // A file when `fileOrPreset` is one, else the preset of that name. False with *error set
    // when there is neither, or it cannot be read; a spec with problems is read (see problems).
    static bool read(const QString &fileOrPreset, SpecSource *out, QString *error);
    static QString presetPath(const QString &name); // ":/presets/<name>.json"
    static bool presetExists(const QString &name);
    // The built-in presets, by name, each with what it reproduces (its spec's "name").
    struct Preset
    {
        QString name;
        QString description;
    };
    static QList<Preset> presets();
};

} // namespace servelab::lab
