// SPDX-License-Identifier: Apache-2.0
#include "specsource.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace servelab::lab {

QString SpecSource::presetPath(const QString &name)
{
    return QStringLiteral(":/presets/%1.json").arg(name);
}

bool SpecSource::presetExists(const QString &name)
{
    return !name.isEmpty() && QFile::exists(presetPath(name));
}

QList<SpecSource::Preset> SpecSource::presets()
{
    QList<Preset> out;
    for (const QString &file :
         QDir(QStringLiteral(":/presets")).entryList({QStringLiteral("*.json")})) {
        SpecSource source;
        QString error;
        read(file.chopped(5), &source, &error);
        out << Preset{file.chopped(5), source.spec.name};
    }
    return out;
}

bool SpecSource::read(const QString &fileOrPreset, SpecSource *out, QString *error)
{
    const bool isFile = QFileInfo(fileOrPreset).isFile();
    if (!isFile && !presetExists(fileOrPreset)) {
        *error = QStringLiteral("'%1' is neither a spec file nor a preset (servelab-cli presets "
                                "lists them)")
                     .arg(fileOrPreset);
        return false;
    }
    SpecSource source;
    source.path = isFile ? fileOrPreset : presetPath(fileOrPreset);
    QFile file(source.path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(fileOrPreset, file.errorString());
        return false;
    }
    source.text = file.readAll();
    ExperimentSpec::parse(source.text, fileOrPreset, &source.spec, &source.problems);
    if (source.spec.name.isEmpty())
        source.spec.name = QFileInfo(source.path).completeBaseName();
    *out = std::move(source);
    return true;
}

} // namespace servelab::lab
