// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the experiment spec loader on any bytes. A spec it accepts must write out
// as JSON that it accepts again, to the same JSON (what the wizard's round trip relies on).
#include "lab/spec/experimentspec.h"

#include <QByteArray>
#include <QStringList>

#include <cstdlib>

using namespace servelab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    lab::ExperimentSpec spec;
    QStringList errors;
    if (!lab::ExperimentSpec::parse(text, QStringLiteral("fuzz"), &spec, &errors)) {
        if (errors.isEmpty()) // a refusal always says why
            std::abort();
        return 0;
    }
    const QByteArray once = spec.toJson();
    lab::ExperimentSpec again;
    if (!lab::ExperimentSpec::parse(once, QStringLiteral("fuzz"), &again, &errors))
        std::abort();
    if (again.toJson() != once)
        std::abort();
    return 0;
}
