// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

namespace servelab::lab {

// What two runs were set up to measure differently, as `compare` and the window's Compare page
// list it before any ratio: a ratio between different setups compares the setups, not a change
// in a server. Each spec is read as `run` reads it, every default filled in, so a key written
// in one and left to its default in the other is no difference; the name is no part of a
// setup. Lines: "client.keep_alive: false → true", "sizes: 4K, 256K → 4K, 1M",
// "target nginx's model: threads: 1 → 4", "targets: + h2o", "targets: − nginx".
struct SetupDifferences
{
    // Empty when both specs describe the same experiment. A spec that was not kept (an old
    // database, a bundle without one) gives one line saying the setups cannot be compared.
    static QStringList of(const QByteArray &baselineSpec, const QByteArray &candidateSpec);
    // Whether `spec` was kept: it reads as a spec.
    static bool kept(const QByteArray &spec);
    // The setup `spec` describes, as text equal for two specs of one setup (defaults filled,
    // the name left out; targets in their order, which of() does not mind); empty when not
    // kept.
    static QByteArray canonical(const QByteArray &spec);
    // Every scalar of `object` by dotted key ("client.keep_alive"), arrays as one value.
    static QMap<QString, QString> flattened(const QJsonObject &object);
};

} // namespace servelab::lab
