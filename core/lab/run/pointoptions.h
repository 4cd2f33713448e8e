// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/clientoptions.h"

#include <QString>

namespace servelab::lab {

struct SweepSpec;

// The client options of one point: the spec's client settings, the file of that size (and its
// copies) on the server at host:port (a url target's own host and path instead), and for https
// the builtin servers' certificate as the one CA trusted. What SweepRunner runs, and what each
// load agent of a distributed point runs with its share of the spec.
client::ClientOptions pointOptions(const SweepSpec &spec, quint64 size, const QString &host,
                                   quint16 port);

} // namespace servelab::lab
