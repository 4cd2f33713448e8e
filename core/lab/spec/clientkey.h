// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonValue>
#include <QAnyStringView>
#include <QString>

#include <span>

namespace servelab::lab {

struct SpecField;
struct SweepSpec;

// One field of a spec's "client" object that a client model may take, declared once: its key,
// what it holds (one of SpecFields' whole numbers, true/false, or a text with its own check)
// and where a SweepSpec keeps it. The spec reader and toJson, the wizard's client page and
// the "applies to" errors follow these rows; which model takes which key is said by the
// model's row (lab::ExperimentModel::keys). The keys every model takes ("model",
// "concurrency", "timeout_ms") are the spec reader's own.
struct ClientKey
{
    enum class Kind
    {
        Number, // a whole number: `field` holds its range, default, label and words
        Real,   // a number from `low` to `high`
        Flag,   // true or false
        Text,   // a non-empty string, checked by `check`
    };
    const char *key; // in "client"
    Kind kind;
    const SpecField *field; // Number only
    const char *title;      // Real, Flag, Text: the window's words (a Number's are its field's)
    const char *help;       // a tooltip: what it is in the tool the models reproduce
    QJsonValue (*get)(const SweepSpec &);
    void (*set)(SweepSpec *, const QJsonValue &); // the value is of the kind, already checked
    QString (*check)(const QString &);            // Text: the problem with a value, or empty
    double low = 0; // Real: the range
    double high = 0;

    QString label() const;
    // Empty when `value` can be set: of the kind, in the field's range, passing the check.
    // Else what is wrong, without the key's name ("wants a whole number from 1 to 256").
    QString problem(const QJsonValue &value) const;

    static std::span<const ClientKey> all();
    static const ClientKey *find(QAnyStringView key);
};

} // namespace servelab::lab
