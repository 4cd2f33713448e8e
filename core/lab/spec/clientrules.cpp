// SPDX-License-Identifier: Apache-2.0
#include "clientrules.h"

namespace servelab::lab {

QString ClientRules::Problem::text(FieldNaming naming) const
{
    if (!field)
        return {};
    return field->name(naming) +
           (naming == FieldNaming::Spec ? QStringLiteral(": ") : QStringLiteral(" ")) + what;
}

ClientRules::Problem ClientRules::check(const ClientShape &shape, FieldNaming naming)
{
    namespace F = SpecFields;
    const auto outOf = [](const SpecField &f, qint64 value) {
        return Problem{&f, QStringLiteral("%1, not '%2'").arg(f.wants()).arg(value)};
    };
    if (!F::concurrency.contains(shape.concurrency))
        return outOf(F::concurrency, shape.concurrency);
    if (shape.closed) {
        if (!F::requests.contains(shape.requests))
            return outOf(F::requests, shape.requests);
        if (shape.concurrency > shape.requests)
            return {&F::concurrency, QStringLiteral("%1 cannot exceed %2 (%3), as in ab")
                                         .arg(shape.concurrency)
                                         .arg(F::requests.name(naming))
                                         .arg(shape.requests)};
        return {};
    }
    if (!F::clientThreads.contains(shape.clientThreads))
        return outOf(F::clientThreads, shape.clientThreads);
    if (shape.clientThreads > shape.concurrency)
        return {&F::clientThreads,
                QStringLiteral("%1 cannot exceed %2 (%3): each thread needs its own connection, "
                               "as in wrk")
                    .arg(shape.clientThreads)
                    .arg(F::concurrency.name(naming))
                    .arg(shape.concurrency)};
    return {};
}

} // namespace servelab::lab
