// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/loadmodel.h"

#include <QString>

class QCommandLineParser;

namespace servelab::cli {

// The client models of `servelab-cli load` (client::loadModels()), and which of its flags each
// takes.
using client::LoadModel;

// The model a command line asks for. --model names it; without --model the flags choose, as the
// tool each model reproduces would read them: wrk's -d selects duration, wrk2's -R rate,
// faban's --ramp or --think ramp, and nothing of those closed (ab). A flag the model does not
// take is refused, saying what the flag is: `-d 3 -c 64 -t 1` typed for wrk learns that -t is
// ab's time limit and that wrk's threads are --threads.
bool chooseLoadModel(const QCommandLineParser &parser, LoadModel *model, QString *error);
// A flag's --help text, after the models that take it ("duration, rate: ") when not all do:
// the same rows chooseLoadModel() reads.
QString loadFlagHelp(const char *flag, const QString &help);

} // namespace servelab::cli
