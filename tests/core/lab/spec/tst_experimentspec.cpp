// SPDX-License-Identifier: Apache-2.0
#include "lab/spec/experimentmodel.h"
#include "lab/spec/experimentspec.h"
#include "lab/spec/jsonlocator.h"

#include <QTest>

using servelab::lab::ExperimentModel;
using servelab::lab::ExperimentSpec;
using servelab::lab::JsonLocator;
namespace lab = servelab::lab;

class TestExperimentSpec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void locatorFindsValuesAndKeys()
    {
        const QByteArray text = "{\n  \"a\": 1,\n  \"list\": [10, {\"k\": \"v\"}],\n"
                                "  \"o\": {\"deep\": true}\n}\n";
        const JsonLocator at(text);
        QCOMPARE(at.valueAt(QStringLiteral("a")).line, 2);
        QCOMPARE(at.valueAt(QStringLiteral("a")).column, 8);
        QCOMPARE(at.keyAt(QStringLiteral("a")).column, 3);
        QCOMPARE(at.valueAt(QStringLiteral("list[1].k")).line, 3);
        QCOMPARE(at.valueAt(QStringLiteral("list[1].k")).column, 22);
        QCOMPARE(at.valueAt(QStringLiteral("o.deep")).line, 4);
        // A path that is not there points at its nearest ancestor.
        QCOMPARE(at.valueAt(QStringLiteral("o.missing")).column, 8);
        QCOMPARE(at.valueAt(QStringLiteral("nothing")).line, 1);
    }

    void minimalSpecGetsEveryDefault()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(
            ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+sendfile"}]})",
                                  QStringLiteral("s.json"), &spec, &errors),
            qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.targets.size(), 1);
        QCOMPARE(spec.targets[0].sizes.size(), 14); // 4K..32M
        QCOMPARE(spec.targets[0].requests, 200u);
        QCOMPARE(spec.repetitions, 1);
        const QByteArray written = spec.toJson();
        for (const char *field :
             {"\"sizes\"", "\"requests\": 200", "\"concurrency\": 1", "\"repetitions\": 1",
              "\"point_deadline_ms\": 120000", "\"timeout_ms\": 30000", "\"isolated\": true"})
            QVERIFY2(written.contains(field), field);
        // What it writes reads back the same.
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(written, QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.toJson(), written);
    }

    void everyFieldIsRead()
    {
        const QByteArray text = R"({
  "servelab": 1,
  "name": "seed 001",
  "targets": [{"builtin": "blocking+copy", "threads": 4, "fd_limit": 1024},
              {"external": "nginx", "threads": 2}],
  "sizes": "4K..16K",
  "document_root": "/tmp/x",
  "client": {"requests": 50, "concurrency": 5, "keep_alive": true, "timeout_ms": 900},
  "repetitions": 3,
  "point_deadline_ms": 5000
})";
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.name, QStringLiteral("seed 001"));
        QCOMPARE(spec.repetitions, 3);
        QCOMPARE(spec.targets.size(), 2);
        const auto &a = spec.targets[0];
        QCOMPARE(a.target, QStringLiteral("builtin"));
        QCOMPARE(a.mode, QStringLiteral("blocking+copy"));
        QCOMPARE(a.serverThreads, 4);
        QCOMPARE(a.fdLimit, 1024);
        QCOMPARE(a.sizes, (QList<quint64>{4096, 8192, 16384}));
        QCOMPARE(a.root, QStringLiteral("/tmp/x"));
        QCOMPARE(a.requests, 50u);
        QCOMPARE(a.concurrency, 5);
        QVERIFY(a.keepAlive);
        QCOMPARE(a.timeoutMs, 900);
        QCOMPARE(a.pointDeadlineMs, 5000);
        QCOMPARE(spec.targets[1].target, QStringLiteral("nginx"));
        QCOMPARE(spec.targets[1].serverThreads, 2);
    }

    // Server options, warm-up, cool-down, and a sweep over one option: each builtin target is
    // run once per value, an external one once.
    void optionsAndSweepsExpand()
    {
        const QByteArray text = R"({"servelab": 1,
  "targets": [{"builtin": "multiplex+copy", "threads": 8,
               "options": {"max-downloads": 1000, "chunk": "81000", "nodelay": false}},
              {"external": "nginx"}],
  "sweep": {"option": "sendfile-threshold", "values": ["1", 65536]},
  "warmup_requests": 50, "cooldown_ms": 200})";
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.targets.size(), 2);
        const auto &t = spec.targets[0];
        QCOMPARE(t.serverArguments,
                 (QStringList{QStringLiteral("--chunk"), QStringLiteral("81000"),
                              QStringLiteral("--max-downloads"), QStringLiteral("1000"),
                              QStringLiteral("--nodelay"), QStringLiteral("off")}));
        QVERIFY(t.runsIsolated());
        QCOMPARE(t.warmupRequests, 50u);
        QCOMPARE(t.cooldownMs, 200);
        const auto runs = spec.expanded();
        QCOMPARE(runs.size(), 3); // two thresholds for the builtin target, nginx once
        QCOMPARE(runs[0].variant, QStringLiteral("sendfile-threshold=1"));
        QCOMPARE(runs[1].serverArguments.mid(6),
                 (QStringList{QStringLiteral("--sendfile-threshold"), QStringLiteral("65536")}));
        QCOMPARE(runs[2].target, QStringLiteral("nginx"));
        QVERIFY(runs[2].variant.isEmpty());
        // Written back whole, and read back the same.
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.toJson(), spec.toJson());
        QCOMPARE(again.expanded().size(), 3);
    }

    // wrk's model: seconds on kept-alive connections over client threads.
    void durationClient()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "poller+copy"}],
  "client": {"model": "duration", "seconds": 3, "concurrency": 96, "threads": 8}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        const auto &t = spec.targets[0];
        QCOMPARE(t.model, servelab::client::LoadModel::Duration);
        QCOMPARE(t.durationMs, 3000);
        QCOMPARE(t.clientThreads, 8);
        QCOMPARE(t.concurrency, 96);
        QVERIFY(t.keepAlive);
        QVERIFY(spec.toJson().contains("\"seconds\": 3"));
        QVERIFY(!spec.toJson().contains("\"requests\""));
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.toJson(), spec.toJson());

        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "poller+copy"}],
  "client": {"model": "duration", "requests": 5, "concurrency": 4, "threads": 8}})",
                                       QStringLiteral("s.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        QVERIFY2(all.contains(QStringLiteral("s.json:2:35: client.requests: applies to \"model\": "
                                             "\"closed\"")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("client.threads: 8 cannot exceed client.concurrency "
                                             "(4): each thread needs its own connection")),
                 qPrintable(all));
        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "poller+copy"}],
  "client": {"seconds": 5}})",
                                       QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral("client.seconds: applies to \"model\": "
                                                            "\"duration\" or \"rate\"")),
                 qPrintable(errors.join(u'\n')));
    }

    // wrk2's and faban's models: their keys read, written back whole, refused with the reason
    // where they do not apply or are wrong.
    void rateAndRampClients()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "client": {"model": "rate", "rate": 2000, "seconds": 3, "concurrency": 16, "threads": 2}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.targets[0].model, servelab::client::LoadModel::Rate);
        QCOMPARE(spec.targets[0].ratePerSecond, 2000);
        QCOMPARE(spec.targets[0].durationMs, 3000);
        QVERIFY(spec.toJson().contains("\"rate\": 2000"));
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.toJson(), spec.toJson());

        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "client": {"model": "ramp", "ramp_up_seconds": 60, "steady_seconds": 600,
             "ramp_down_seconds": 10, "think": "negexp:500ms", "concurrency": 100,
             "keep_alive": true}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        const auto &t = spec.targets[0];
        QCOMPARE(t.model, servelab::client::LoadModel::Ramp);
        QCOMPARE(t.rampUpMs, 60'000);
        QCOMPARE(t.steadyMs, 600'000);
        QCOMPARE(t.rampDownMs, 10'000);
        QCOMPARE(t.think, QStringLiteral("negexp:500ms"));
        QVERIFY(t.keepAlive);
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.toJson(), spec.toJson());

        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "client": {"model": "ramp", "think": "often", "rate": 5}})",
                                       QStringLiteral("s.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        QVERIFY2(all.contains(QStringLiteral("s.json:2:40: client.think: 'often' is not a think "
                                             "time")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("client.rate: applies to \"model\": \"rate\"")),
                 qPrintable(all));
    }

    // Seed 002's realistic load: closes and keep-alive think times as spec fields, each model
    // taking those its tool can make.
    void realismFields()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "client": {"requests": 1000, "concurrency": 300, "keep_alive": true, "close_after": 10,
             "close_probability": 0.05, "keepalive_think": "negexp:20ms", "http1_0": true,
             "ab_reads": true}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        const auto &t = spec.targets[0];
        QCOMPARE(t.closeAfter, 10);
        QCOMPARE(t.closeProbability, 0.05);
        QCOMPARE(t.keepAliveThink, QStringLiteral("negexp:20ms"));
        QVERIFY(t.http10 && t.abReads);
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.toJson(), spec.toJson());
        QVERIFY2(ExperimentModel::of(t.model).command(t).contains(
                     QStringLiteral("--close-after 10 --close-probability 0.05 --keepalive-think "
                                    "negexp:20ms")),
                 qPrintable(ExperimentModel::of(t.model).command(t)));

        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "client": {"model": "rate", "close_probability": 2, "keepalive_think": "fixed:1ms",
             "ab_reads": true}})",
                                       QStringLiteral("s.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        for (const char *words :
             {"client.close_probability: wants a number from 0 to 1",
              "client.keepalive_think: applies to \"model\": \"closed\" or \"duration\"",
              "client.ab_reads: applies to \"model\": \"closed\""})
            QVERIFY2(all.contains(QLatin1String(words)), qPrintable(all));
    }

    // Seed 003's live tuning, scripted: a target's "tune" steps, read in time order, written
    // back whole, each wrong one refused at its place with ServerTuning's reason.
    void tuneSteps()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "multiplex+copy",
  "threads": 1, "tune": [{"at_ms": 9000, "chunk": "64K"},
                         {"at_ms": 5000, "threads": 8, "max-downloads": 4}]}]})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        const auto &t = spec.targets[0];
        QCOMPARE(t.tune.size(), 2);
        QCOMPARE(t.tune[0].atMs, 5000);
        QCOMPARE(t.tune[0].assignments,
                 (QStringList{QStringLiteral("max-downloads=4"), QStringLiteral("threads=8")}));
        QCOMPARE(t.tune[1].assignments, QStringList{QStringLiteral("chunk=64K")});
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.targets[0].tune, t.tune);

        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy",
  "tune": [{"at_ms": -1, "threads": 2}, {"at_ms": 10, "backlog": 9}, {"at_ms": 10},
           {"threads": 2}, {"at_ms": 10, "banana": 1}, {"at_ms": 10, "threads": "many"}]},
  {"builtin": "epoll+copy", "tune": 5}]})",
                                       QStringLiteral("s.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        for (const char *words :
             {"targets[0].tune[0].at_ms: wants a whole number from 0 to 3600000",
              "targets[0].tune[1].backlog: backlog cannot change while the server runs: the "
              "listen queue is sized once",
              "targets[0].tune[2]: changes nothing: add an option",
              "targets[0].tune[3]: wants \"at_ms\"",
              "targets[0].tune[4].banana: --banana is not a server option",
              "targets[0].tune[5].threads: --threads wants a whole number",
              "targets[1].tune: wants a list of changes"})
            QVERIFY2(all.contains(QLatin1String(words)), qPrintable(all));
        errors.clear();
        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"external": "nginx",
  "tune": [{"at_ms": 10, "threads": 2}]}]})",
                                       QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral("targets[0]: tune applies to builtin "
                                                            "targets")),
                 qPrintable(errors.join(u'\n')));
        errors.clear(); // a pool that cannot change, refused before anything runs
        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy",
  "tune": [{"at_ms": 10, "threads": 2}]}]})",
                                       QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral(
                     "threads cannot change while the server runs in mode epoll+copy")),
                 qPrintable(errors.join(u'\n')));
    }

    // Several loads in one experiment (seed 003: faban's ramp and ab on the same servers):
    // every target under each, named, written back whole.
    void severalClients()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1,
  "targets": [{"builtin": "epoll+copy"}, {"builtin": "blocking+copy", "threads": 8}],
  "clients": [{"model": "ramp", "steady_seconds": 2, "concurrency": 10},
              {"name": "ab", "requests": 50, "concurrency": [1, 5]},
              {"name": "offered", "model": "rate", "rates": [100, 200], "concurrency": 4}]})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.loads.size(), 3);
        QCOMPARE(spec.loads[0].name, QStringLiteral("fhb")); // its tool's, when not named
        QCOMPARE(spec.targets[0].model, servelab::client::LoadModel::Ramp); // the first load
        const auto targets = spec.expanded();
        QCOMPARE(targets.size(), 2 * (1 + 2 + 2));
        QCOMPARE(targets[0].variant, QStringLiteral("fhb"));
        QCOMPARE(targets[0].steadyMs, 2000);
        QCOMPARE(targets[2].variant, QStringLiteral("ab c=5"));
        QCOMPARE(targets[2].model, servelab::client::LoadModel::Closed);
        QCOMPARE(targets[2].requests, 50u);
        QCOMPARE(targets[4].variant, QStringLiteral("offered R=200"));
        QCOMPARE(targets[4].ratePerSecond, 200);
        QCOMPARE(targets[9].label(), QStringLiteral("blocking+copy"));
        ExperimentSpec again;
        QVERIFY2(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(again.toJson(), spec.toJson());
        QCOMPARE(again.expanded().size(), targets.size());

        for (const auto &[json, words] :
             {std::pair{R"("client": {}, "clients": [{}])",
                        "clients: give \"client\" (one load) or \"clients\" (several)"},
              std::pair{R"("clients": [{"name": "x"}, {"name": "x", "model": "duration"}])",
                        "clients[1]: another client is named 'x'"},
              std::pair{R"("clients": [{}, {"model": "duration", "requests": 5}])",
                        "clients[1].requests: applies to \"model\": \"closed\""},
              std::pair{R"("clients": [{}, {"requests": 5, "concurrency": 9}])",
                        "clients[1].concurrency: 9 cannot exceed"},
              std::pair{R"("client": {"name": "x"})", "client.name: unknown field"}}) {
            const QByteArray text =
                QByteArray(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}], )") + json +
                "}";
            QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors));
            QVERIFY2(errors.join(u'\n').contains(QLatin1String(words)),
                     qPrintable(errors.join(u'\n')));
        }
    }

    // Latency against offered load: every target at each offered rate, from a list or a range.
    void offeredRates()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1,
  "targets": [{"builtin": "epoll+copy"}, {"builtin": "blocking+copy", "threads": 8}],
  "client": {"model": "rate", "rates": {"from": 1000, "to": 3000, "step": 1000},
             "seconds": 1, "concurrency": 8}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.rates, (QList<qint64>{1000, 2000, 3000}));
        const auto targets = spec.expanded();
        QCOMPARE(targets.size(), 6);
        QCOMPARE(targets[1].ratePerSecond, 2000);
        QCOMPARE(targets[1].variant, QStringLiteral("R=2000"));
        QCOMPARE(targets[5].label(), QStringLiteral("blocking+copy"));
        QVERIFY(spec.toJson().contains("\"rates\": ["));
        QVERIFY(!spec.toJson().contains("\"rate\":"));
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.toJson(), spec.toJson());
        QCOMPARE(again.rates, spec.rates);

        for (const auto &[client, words] :
             {std::pair{R"({"model": "rate", "rate": 5, "rates": [1, 2]})",
                        "s.json:2:42: client.rates: give client.rate (one rate) or client.rates"},
              std::pair{R"({"model": "duration", "rates": [1, 2]})",
                        "client.rates: applies to \"model\": \"rate\""},
              std::pair{R"({"model": "rate", "rates": [1, 0]})",
                        "client.rates[1]: wants a whole number from 1 to 10000000"},
              std::pair{R"({"model": "rate", "rates": {"from": 9, "to": 1, "step": 1}})",
                        "client.rates: wants from <= to"}}) {
            const QByteArray text = QByteArray(
                                        R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "client": )") + client + "}";
            QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors));
            QVERIFY2(errors.join(u'\n').contains(QLatin1String(words)),
                     qPrintable(errors.join(u'\n')));
        }
    }

    // A list of concurrencies: every target at each, after the option sweep.
    void concurrencySweep()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1,
  "targets": [{"builtin": "epoll+copy"}, {"external": "nginx"}],
  "sweep": {"option": "chunk", "values": ["64K", "1M"]},
  "client": {"requests": 300, "concurrency": [1, 300]}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.concurrencies, (QList<int>{1, 300}));
        const auto runs = spec.expanded();
        QCOMPARE(runs.size(), 6); // (2 chunks + nginx) × 2 levels
        QCOMPARE(runs[0].variant, QStringLiteral("chunk=64K c=1"));
        QCOMPARE(runs[1].concurrency, 300);
        QCOMPARE(runs[5].target, QStringLiteral("nginx"));
        QCOMPARE(runs[5].variant, QStringLiteral("c=300"));
        QVERIFY(spec.toJson().contains("\"concurrency\": [\n"));
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.expanded().size(), 6);

        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "client": {"requests": 100, "concurrency": [1, 0, 500]}})",
                                       QStringLiteral("s.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        QVERIFY2(all.contains(QStringLiteral("s.json:2:50: client.concurrency[1]: wants a whole "
                                             "number from 1 to 100000")),
                 qPrintable(all));
        QVERIFY2(
            all.contains(QStringLiteral("client.concurrency: 500 cannot exceed client.requests "
                                        "(100)")),
            qPrintable(all));
    }

    // "transport": every target over each entry, a series each; https only where it can be
    // measured, and the server's own --tls left to the axis (else the client would not know).
    void transportAxis()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1,
  "targets": [{"builtin": "epoll+copy"}, {"builtin": "poller+mmap"}],
  "transport": ["http", "https", "https:resume"],
  "client": {"requests": 300, "concurrency": [1, 8]}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        const auto runs = spec.expanded();
        QCOMPARE(runs.size(), 12); // 2 targets × 2 levels × 3 transports
        QCOMPARE(runs[0].variant, QStringLiteral("c=1 http"));
        QCOMPARE(runs[1].variant, QStringLiteral("c=1 https"));
        QCOMPARE(runs[2].transport, QStringLiteral("https:resume"));
        QCOMPARE(runs[11].variant, QStringLiteral("c=8 https:resume"));
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.transports, spec.transports);

        QVERIFY(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "transport": "https"})",
                                      QStringLiteral("s.json"), &spec, &errors));
        QCOMPARE(spec.expanded().size(), 1);
        QCOMPARE(spec.expanded()[0].variant, QStringLiteral("https"));
        QVERIFY(spec.toJson().contains("\"transport\": \"https\""));

        const auto refused = [&](const char *text, const QString &expected) {
            QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors));
            const QString all = errors.join(u'\n');
            QVERIFY2(all.contains(expected), qPrintable(all));
        };
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "transport": ["http", "https:again"]})",
                QStringLiteral("transport[1]: wants \"http\", \"https\""));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "transport": ["https", "https"]})",
                QStringLiteral("transport[1]: \"https\" is listed twice"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "qt+copy"}], "transport": "https"})",
                QStringLiteral("the qt model serves plain HTTP only"));
        refused(R"({"servelab": 1, "targets": [{"external": "tomcat"}], "transport": "https"})",
                QStringLiteral("tomcat is taken as http"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy",
  "options": {"tls": "self-signed"}}]})",
                QStringLiteral("--tls is set by the experiment's \"transport\""));
    }

    // HTTP/2 on the same axis: h2c and h2 entries, the concurrency's requests `streams` to a
    // connection, refused where the target or the client's flags cannot speak it.
    void http2OnTheTransportAxis()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1,
  "targets": [{"builtin": "epoll+sendfile"}, {"external": "nginx"}],
  "transport": ["http", "h2c", "h2"],
  "client": {"model": "duration", "seconds": 1, "concurrency": 16, "streams": 8,
             "threads": 2}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        const auto runs = spec.expanded();
        QCOMPARE(runs.size(), 6);
        QCOMPARE(runs[1].variant, QStringLiteral("h2c"));
        QCOMPARE(runs[1].protocol(), QStringLiteral("h2c"));
        QCOMPARE(runs[2].protocol(), QStringLiteral("h2"));
        QCOMPARE(runs[0].protocol(), QStringLiteral("http/1.1"));
        QCOMPARE(runs[1].streams, 8);
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.transports, spec.transports);
        QCOMPARE(again.expanded()[1].streams, 8);

        const auto refused = [&](const char *text, const QString &expected) {
            QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors));
            const QString all = errors.join(u'\n');
            QVERIFY2(all.contains(expected), qPrintable(all));
        };
        refused(R"({"servelab": 1, "targets": [{"external": "apache"}], "transport": "h2c"})",
                QStringLiteral("apache over h2c: apache runs the prefork MPM"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "multiplex+copy"}], "transport": "h2"})",
                QStringLiteral("--http2 is not spoken by the multiplex model"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}], "transport": "h2c",
  "client": {"requests": 100, "concurrency": 10, "streams": 4}})",
                QStringLiteral("over h2c the concurrency (10) goes 4 streams to a connection: "
                               "make it a multiple of 4"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}], "transport": "h2c",
  "client": {"model": "duration", "concurrency": 8, "streams": 8, "threads": 2}})",
                QStringLiteral("over h2c, 2 client threads need 2 connections"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}], "transport": "h2c",
  "client": {"requests": 100, "ab_reads": true}})",
                QStringLiteral("ab_reads is HTTP/1's: over h2c turn it off"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}], "transport": "h3"})",
                QStringLiteral("\"h2c\" or \"h2\" (HTTP/2)"));
    }

    void profileChoosesPointsAndReadsBack()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "sizes": ["12", "4K", "1M"], "profile": {"sizes": ["12", "1M"], "frequency": 997}})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        const lab::SweepSpec run = spec.expanded().first();
        QVERIFY(run.profile.wants(12));
        QVERIFY(!run.profile.wants(4096));
        QVERIFY(run.profile.wants(1024 * 1024));
        QCOMPARE(run.profile.frequency, 997);
        QVERIFY(run.profile.offCpu);
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.targets.first().profile.sizes, run.profile.sizes);
        QCOMPARE(again.targets.first().profile.frequency, 997);

        QVERIFY(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "profile": true})",
                                      QStringLiteral("s.json"), &spec, &errors));
        QVERIFY(spec.expanded().first().profile.wants(4096));
        QVERIFY(spec.toJson().contains("\"profile\": true"));
        QVERIFY(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}]})",
                                      QStringLiteral("s.json"), &spec, &errors));
        QVERIFY(!spec.expanded().first().profile.wants(4096));
        QVERIFY(!spec.toJson().contains("profile"));

        const auto refused = [&](const char *text, const QString &expected) {
            QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors));
            const QString all = errors.join(u'\n');
            QVERIFY2(all.contains(expected), qPrintable(all));
        };
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}], "profile": "yes"})",
                QStringLiteral("profile: wants true, or {\"sizes\""));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "profile": {"sizes": ["big"]}})",
                QStringLiteral("sizes wants a list like"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "profile": {"frequency": 0}})",
                QStringLiteral("frequency wants samples a second"));
        refused(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "profile": {"hz": 99}})",
                QStringLiteral("has no field \"hz\""));
    }

    // "hosts" names the hosts file of a run across machines, written back as it was read; a
    // spec without one runs here and writes none.
    void hostsFileIsKept()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "hosts": "lab/hosts.json"})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.hosts, QStringLiteral("lab/hosts.json"));
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.hosts, QStringLiteral("lab/hosts.json"));
        QVERIFY(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}]})",
                                      QStringLiteral("s.json"), &spec, &errors));
        QVERIFY(spec.hosts.isEmpty());
        QVERIFY(!spec.toJson().contains("hosts"));
        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "hosts": 7})",
                                       QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral("hosts")),
                 qPrintable(errors.join(u'\n')));
    }

    // A builtin server runs in its own process unless the spec says "isolated": false; then its
    // column says so, and what only a child can have is refused.
    void inProcessIsChosenAndNamed()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"},
  {"builtin": "epoll+copy", "isolated": false}]})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QVERIFY(spec.targets[0].runsIsolated());
        QCOMPARE(spec.targets[0].label(), QStringLiteral("epoll+copy"));
        QVERIFY(!spec.targets[1].runsIsolated());
        QCOMPARE(spec.targets[1].label(), QStringLiteral("epoll+copy (in-process)"));
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QVERIFY(!again.targets[1].runsIsolated());

        const QString needsChild = QStringLiteral(
            "targets[0]: an fd limit and server options need the server in its own process: "
            "drop \"isolated\": false (or the limit and options)");
        for (const char *target : {R"({"builtin": "epoll+copy", "isolated": false,
                                       "options": {"chunk": 8192}})",
                                   R"({"builtin": "epoll+copy", "isolated": false,
                                       "fd_limit": 64})"}) {
            const QByteArray text = QByteArray(R"({"servelab": 1, "targets": [)") + target + "]}";
            QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors));
            QVERIFY2(errors.join(u'\n').contains(needsChild), qPrintable(errors.join(u'\n')));
        }
        QVERIFY(!ExperimentSpec::parse(
            R"({"servelab": 1, "targets": [{"external": "nginx", "isolated": true}]})",
            QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral(
                     "targets[0]: isolated, fd_limit and options apply to builtin targets")),
                 qPrintable(errors.join(u'\n')));
    }

    // A target's label follows its name in every table, survives a round trip, and is refused
    // with its reason when it is not one short line.
    void labelNamesWhatATargetStandsFor()
    {
        ExperimentSpec spec;
        QStringList errors;
        // (No raw string: moc reads the apostrophe as a character literal's.)
        QVERIFY2(
            ExperimentSpec::parse(
                "{\"servelab\": 1, \"targets\": [\n"
                "  {\"builtin\": \"blocking+copy\", \"label\": \" Coyote BIO's analogue \"},\n"
                "  {\"external\": \"tomcat-nosendfile\", \"label\": \"NIO, useSendfile=false\"}]}",
                QStringLiteral("s.json"), &spec, &errors),
            qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.targets[0].label(), QStringLiteral("blocking+copy (Coyote BIO's analogue)"));
        QCOMPARE(spec.targets[0].name(), QStringLiteral("blocking+copy"));
        QCOMPARE(spec.targets[1].label(),
                 QStringLiteral("tomcat-nosendfile (NIO, useSendfile=false)"));
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.targets[0].caption, QStringLiteral("Coyote BIO's analogue"));
        QCOMPARE(again.targets[1].caption, QStringLiteral("NIO, useSendfile=false"));

        for (const char *label : {R"("a label far longer than the forty characters allowed")",
                                  R"("two\nlines")", "42", R"("")"}) {
            const QByteArray text = QByteArray(R"({"servelab": 1, "targets": [)") +
                                    R"({"builtin": "epoll+copy", "label": )" + label + "}]}";
            QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors));
            QVERIFY2(errors.join(u'\n').contains(QStringLiteral("targets[0]")) &&
                         (errors.join(u'\n').contains(QStringLiteral("at most 40 characters")) ||
                          errors.join(u'\n').contains(QStringLiteral("wants a non-empty string"))),
                     qPrintable(errors.join(u'\n')));
        }
    }

    // "if_installed": the real server runs where it is installed; elsewhere it is left out with
    // a line saying what brings it, and a spec left with no target is refused.
    void ifInstalledLeavesOutWhatIsMissing()
    {
        qputenv("TOMCAT_HOME", "/nonexistent/tomcat"); // tomcat is not installed, whatever is
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(R"({"servelab": 1, "targets": [
  {"builtin": "epoll+copy"}, {"external": "tomcat", "if_installed": true},
  {"external": "nginx", "if_installed": true}]})",
                                       QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(spec.targets.size(), 2); // nginx is installed on every leg
        QCOMPARE(spec.targets[1].target, QStringLiteral("nginx"));
        QCOMPARE(spec.leftOut,
                 QStringList{QStringLiteral("tomcat left out: not installed here (apt-get "
                                            "install tomcat10 default-jre-headless)")});
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QVERIFY(again.targets[1].ifInstalled);

        QVERIFY(!ExperimentSpec::parse(
            R"({"servelab": 1, "targets": [{"external": "tomcat", "if_installed": true}]})",
            QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral("every target is left out (tomcat "
                                                            "left out")),
                 qPrintable(errors.join(u'\n')));
        QVERIFY(!ExperimentSpec::parse(
            R"({"servelab": 1, "targets": [{"builtin": "epoll+copy", "if_installed": true}]})",
            QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral(
                     "targets[0].if_installed: applies to real servers ServeLab launches")),
                 qPrintable(errors.join(u'\n')));
        qunsetenv("TOMCAT_HOME");
    }

    void badOptionsAreNamed()
    {
        const QByteArray text = R"({"servelab": 1,
  "targets": [{"builtin": "epoll+copy", "options": {"port": 80, "--chunk": 1, "buffer": 1.5,
                                                    "banana": 1}},
              {"external": "nginx", "options": {"chunk": 1}}],
  "sweep": {"option": "threads", "values": [1]}})";
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        QVERIFY2(
            all.contains(QStringLiteral("s.json:2:53: targets[0].options.port: 'port' is set by "
                                        "the target itself")),
            qPrintable(all));
        QVERIFY2(
            all.contains(QStringLiteral("targets[0].options.--chunk: '--chunk' is not a server "
                                        "option name")),
            qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("targets[0].options.buffer: wants a whole number, a "
                                             "string or true/false")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("targets[1]: isolated, fd_limit and options apply to "
                                             "builtin targets")),
                 qPrintable(all));
        QVERIFY2(
            all.contains(QStringLiteral("sweep.option: 'threads' is set by the target itself")),
            qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("targets[0].options.banana: 'banana' is not a server "
                                             "option (servelab-cli serve --help lists them)")),
                 qPrintable(all));
    }

    // A value the server would refuse, in an option or in the values swept over, is refused
    // when the spec is read, with the words `serve` uses.
    void badOptionValuesAreRefusedBeforeTheRun()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1,
  "targets": [{"builtin": "epoll+copy", "options": {"sendfile-threshold": "abc"}}]})",
                                       QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral(
                     "s.json:2:15: targets[0]: --sendfile-threshold wants a size from 1")),
                 qPrintable(errors.join(u'\n')));
        errors.clear();
        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "sweep": {"option": "sendfile-threshold", "values": ["64K", "abc"]}})",
                                       QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral(
                     "sweep: --sendfile-threshold wants a size from 1 to 64M (like 8K or 81000), "
                     "not 'abc' (epoll+copy)")),
                 qPrintable(errors.join(u'\n')));
        errors.clear();
        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "sweep": {"option": "banana", "values": [1]}})",
                                       QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(
                     QStringLiteral("sweep.option: 'banana' is not a server option")),
                 qPrintable(errors.join(u'\n')));
    }

    // Every mistake at once, each with the line and column to fix.
    void errorsNameTheFieldAndThePlace()
    {
        const QByteArray text = R"({
  "servelab": 1,
  "targets": [{"builtin": "carrier+pigeon"}, {"external": "nginx", "isolated": true}],
  "client": {"requests": 0,
             "concurency": 4},
  "sizes": ["4K", "lots"],
  "repetitions": 2.5
})";
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("spec.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        QVERIFY2(all.contains(QStringLiteral("spec.json:4:26: client.requests: wants a whole "
                                             "number from 1 to")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("spec.json:5:14: client.concurency: unknown field")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("spec.json:6:12: sizes: wants sizes like")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("spec.json:7:18: repetitions: wants a whole number")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("spec.json:3:46: targets[1]: isolated, fd_limit and "
                                             "options apply to builtin targets")),
                 qPrintable(all));
        QCOMPARE(errors.size(), 5); // the mode is checked once the rest is right
    }

    // Found by fuzz_experimentspec (UBSan): a number far beyond any whole number the spec takes
    // was converted before it was checked. Each is refused with the range, nothing undefined.
    void hugeNumbersAreRefused_data()
    {
        QTest::addColumn<QByteArray>("number");
        QTest::newRow("1e300") << QByteArray("1e300");
        QTest::newRow("-1e300") << QByteArray("-1e300");
        QTest::newRow("2^63") << QByteArray("9223372036854775808");
        QTest::newRow("2.06667e+115") << QByteArray("2.06667e+115");
    }
    void hugeNumbersAreRefused()
    {
        QFETCH(QByteArray, number);
        const QByteArray text = R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
 "client": {"requests": )" + number +
                                "}}";
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("spec.json"), &spec, &errors));
        QVERIFY2(
            errors.join(u'\n').contains(QStringLiteral("client.requests: wants a whole number")),
            qPrintable(errors.join(u'\n')));
    }

    // The same in a serve option's value (the second place fuzz_experimentspec found it).
    void hugeOptionValueIsRefused()
    {
        const QByteArray text = R"({"servelab": 1, "targets": [{"builtin": "epoll+copy",
 "options": {"buffer": 1e115}}]})";
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY(!ExperimentSpec::parse(text, QStringLiteral("spec.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(
                     QStringLiteral("targets[0].options.buffer: wants a whole number, a")),
                 qPrintable(errors.join(u'\n')));
    }

    void badModeIsTheTargetsProblem()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY(!ExperimentSpec::parse(
            "{\"servelab\": 1,\n \"targets\": [{\"builtin\": \"carrier+pigeon\"}]}",
            QStringLiteral("s.json"), &spec, &errors));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].startsWith(QStringLiteral("s.json:2:14: targets[0]: server mode "
                                                     "'carrier+pigeon'")),
                 qPrintable(errors[0]));
    }

    // How the files are made (random or zeros, several per size) or that an existing folder is
    // used as it is; all of it written back.
    void documentRootObject()
    {
        const QByteArray text = R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
  "document_root": {"path": "/srv/x", "content": "zeros", "files_per_size": 16,
                    "generate": false}})";
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(text, QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        const auto &t = spec.targets[0];
        QCOMPARE(t.root, QStringLiteral("/srv/x"));
        QCOMPARE(t.content, QStringLiteral("zeros"));
        QCOMPARE(t.filesPerSize, 16);
        QVERIFY(!t.generateRoot);
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.targets[0].content, QStringLiteral("zeros"));
        QCOMPARE(again.targets[0].filesPerSize, 16);
        QVERIFY(!again.targets[0].generateRoot);
        QCOMPARE(again.toJson(), spec.toJson());

        // Zeros live in their own default folder: the random files are not rewritten.
        lab::SweepSpec zeros = lab::SweepSpec::defaults();
        lab::SweepSpec random = zeros;
        zeros.content = QStringLiteral("zeros");
        QVERIFY(zeros.resolvedRoot() != random.resolvedRoot());

        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
 "document_root": {"content": "ones", "files_per_size": 0, "generate": false, "size": 1}})",
                                       QStringLiteral("s.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        for (const char *expected :
             {"s.json:2:31: document_root.content: wants \"random\" (incompressible) or \"zeros\"",
              "s.json:2:57: document_root.files_per_size: wants a whole number from 1 to 100000",
              "s.json:2:72: document_root.generate: a folder ServeLab does not generate needs its "
              "\"path\"",
              "s.json:2:79: document_root.size: unknown field"})
            QVERIFY2(all.contains(QLatin1String(expected)), qPrintable(all));
        QVERIFY(!ExperimentSpec::parse(
            R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}], "document_root": 7})",
            QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral("s.json:1:74: document_root: wants a "
                                                            "folder, or {")),
                 qPrintable(errors.join(u'\n')));
    }

    // A server already running, at a URL, with the pid to watch if the user gives it.
    void urlTarget()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY2(ExperimentSpec::parse(
                     "{\"servelab\": 1, \"targets\": [{\"url\": \"http://127.0.0.1:8080/files/\",\n"
                     " \"pid\": 4242}, {\"builtin\": \"epoll+copy\"}], \"sweep\": {\"option\": "
                     "\"chunk\", \"values\": [4096, 8192]}}",
                     QStringLiteral("s.json"), &spec, &errors),
                 qPrintable(errors.join(u'\n')));
        QVERIFY(spec.targets[0].isUrl());
        QCOMPARE(spec.targets[0].url(), QStringLiteral("http://127.0.0.1:8080/files/"));
        QCOMPARE(spec.targets[0].watchPid, 4242);
        QCOMPARE(spec.targets[0].label(), QStringLiteral("http://127.0.0.1:8080/files/"));
        QCOMPARE(spec.expanded().size(), 3); // the url once, the builtin once per value
        ExperimentSpec again;
        QVERIFY(ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors));
        QCOMPARE(again.targets[0].target, spec.targets[0].target);
        QCOMPARE(again.targets[0].watchPid, 4242);

        QVERIFY(!ExperimentSpec::parse(
            "{\"servelab\": 1, \"targets\": [\n"
            " {\"url\": \"https://example.org/\"},\n"
            " {\"url\": \"http://127.0.0.1/\", \"threads\": 2, \"fd_limit\": 64},\n"
            " {\"builtin\": \"epoll+copy\", \"pid\": 1},\n"
            " {\"builtin\": \"epoll+copy\", \"url\": \"http://127.0.0.1/\"}]}",
            QStringLiteral("s.json"), &spec, &errors));
        const QString all = errors.join(u'\n');
        for (const char *expected :
             {"s.json:3:2: targets[1]: isolated, fd_limit and options apply to builtin targets",
              "s.json:3:31: targets[1].threads: a url target is already running",
              "s.json:4:28: targets[2].pid: applies to url targets",
              "s.json:2:2: targets[0]: 'https://example.org/' is not a URL",
              "s.json:5:2: targets[3]: wants one of \"builtin\": MODE, \"external\": NAME or "
              "\"url\""})
            QVERIFY2(all.contains(QLatin1String(expected)), qPrintable(all));
        // Alone, too.
        QVERIFY(!ExperimentSpec::parse(
            "{\"servelab\": 1, \"targets\": [{\"url\": \"https://example.org/\"}]}",
            QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral(
                     "s.json:1:29: targets[0]: 'https://example.org/' is not a URL ServeLab can "
                     "load")),
                 qPrintable(errors.join(u'\n')));
    }

    void notJsonOrNotVersionOne()
    {
        ExperimentSpec spec;
        QStringList errors;
        QVERIFY(!ExperimentSpec::parse("{\n  \"servelab\": 1,\n  \"targets\": [\n}",
                                       QStringLiteral("s.json"), &spec, &errors));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].startsWith(QStringLiteral("s.json:4:")) &&
                     errors[0].contains(QStringLiteral("not JSON")),
                 qPrintable(errors[0]));
        QVERIFY(!ExperimentSpec::parse(R"({"servelab": 2, "targets": [{"builtin": "epoll+copy"}]})",
                                       QStringLiteral("s.json"), &spec, &errors));
        QVERIFY2(errors.join(u'\n').contains(QStringLiteral("s.json:1:14: servelab: this ServeLab "
                                                            "reads spec version 1")),
                 qPrintable(errors.join(u'\n')));
        QVERIFY(!ExperimentSpec::parse("[1, 2]", QStringLiteral("s.json"), &spec, &errors));
        QVERIFY(errors.join(u'\n').contains(QStringLiteral("wants a JSON object")));
    }
};

QTEST_GUILESS_MAIN(TestExperimentSpec)
#include "tst_experimentspec.moc"
