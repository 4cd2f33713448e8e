// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QList>
#include <QMap>

#include <utility>

namespace servelab::lab {

// How long the rest of an experiment will take, from how long its points took so far.
//
// A point that counts requests (closed: n requests) takes a fixed part (n round trips, the
// server's start, the checks after it) plus a part that grows with the file's size (n times
// its bytes). One measured size cannot tell the two apart, so the per-byte part starts from a
// prior — the bandwidth the same kind of run reached on this machine before (ResultStore's
// history: the same target's where it ran before, else any target's, else
// defaultBytesPerSecond) — and each target's own is measured once its bytes show.
// A point measured before (an earlier repetition, same target and size) takes what it took
// then. A point of a time-bound model (duration, rate, ramp) takes what such points took,
// whatever its size.
class EtaEstimator
{
public:
    // Loopback on a 2-core machine, from compare_peers.sh's c=1 sweep: what a first-ever run
    // assumes until it has measured a larger size.
    static constexpr double defaultBytesPerSecond = 2.0 * (1 << 30);

    // `requestsPerPoint`: n of a point that counts requests, 0 for a time-bound model.
    // `bytesPerSecond`: the prior for the per-byte part (<= 0: the default).
    explicit EtaEstimator(quint64 requestsPerPoint = 1, double bytesPerSecond = 0);
    // The prior of one target (its index), where its history says more than the machine's
    // (<= 0: keeps the machine's).
    void setPrior(int target, double bytesPerSecond);

    // A point of `target` (its index in the experiment) at `size` took `ms`.
    void record(int target, quint64 size, qint64 ms);
    // The points still to run as (target, size); -1 when nothing is known to estimate from.
    qint64 remainingMs(const QList<std::pair<int, quint64>> &points) const;

private:
    struct Line // ms = fixed + perByte * size
    {
        double fixed = 0;
        double perByte = 0;
    };
    double perByte(double bytesPerSecond) const;
    double priorOf(int target) const { return m_priors.value(target, m_priorPerByte); }
    qint64 estimate(int target, quint64 size) const;
    static Line fit(const QMap<quint64, qint64> &points, double prior);
    Line lineOf(int target) const;

    bool m_timeBound;
    quint64 m_requests;
    double m_priorPerByte;                        // ms per byte of the file, for the whole point
    QHash<int, double> m_priors;                  // the same, of targets with their own history
    QHash<int, QMap<quint64, qint64>> m_byTarget; // each target's latest time at each size
    QList<qint64> m_all;                          // every point's time
};

} // namespace servelab::lab
