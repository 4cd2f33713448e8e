// SPDX-License-Identifier: Apache-2.0
#include "client/loadmodel.h"
#include "lab/spec/clientrules.h"
#include "lab/spec/experimentspec.h"
#include "lab/spec/specfield.h"
#include "lab/spec/sweepspec.h"

#include <QTest>

using namespace servelab;
using lab::ClientRules;
using lab::FieldNaming;
namespace F = lab::SpecFields;

namespace {

// The specs below write JSON's quotes as ' (moc misreads raw strings with "//" in them).
QString specErrors(QString json)
{
    lab::ExperimentSpec spec;
    QStringList errors;
    lab::ExperimentSpec::parse(json.replace(u'\'', u'"').toUtf8(), QStringLiteral("s.json"), &spec,
                               &errors);
    return errors.join(u'\n');
}

} // namespace

class TestClientRules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Every row's range is the one the spec reader holds a value to: its ends are taken, one
    // past either end is refused in the row's words, at the row's path.
    void theSpecReadsEachRowsRange_data()
    {
        QTest::addColumn<const lab::SpecField *>("field");
        QTest::addColumn<QString>("at");   // where the reader names it
        QTest::addColumn<QString>("spec"); // %1: the value
        const QString target = QStringLiteral("'targets': [{'builtin': 'epoll+copy'}]");
        const auto top = [&](const lab::SpecField &f) {
            QTest::newRow(f.path) << &f << QString::fromLatin1(f.path)
                                  << QStringLiteral("{'servelab': 1, %1, '%2': %3}")
                                         .arg(target, QLatin1String(f.path), QStringLiteral("%1"));
        };
        const auto in = [&](const lab::SpecField &f, const QString &at, const QString &spec) {
            QTest::newRow(f.path) << &f << at << spec;
        };
        top(F::repetitions);
        top(F::pointDeadlineMs);
        top(F::warmupRequests);
        top(F::cooldownMs);
        in(F::filesPerSize, QStringLiteral("document_root.files_per_size"),
           QStringLiteral("{'servelab': 1, %1, 'document_root': {'files_per_size': %2}}")
               .arg(target, QStringLiteral("%1")));
        const QString client = QStringLiteral("{'servelab': 1, %1, 'client': {%2}}");
        in(F::requests, QStringLiteral("client.requests"),
           client.arg(target, QStringLiteral("'requests': %1")));
        in(F::concurrency, QStringLiteral("client.concurrency"),
           client.arg(target, QStringLiteral("'requests': 1099511627776, 'concurrency': %1")));
        in(F::seconds, QStringLiteral("client.seconds"),
           client.arg(target, QStringLiteral("'model': 'duration', 'seconds': %1")));
        in(F::clientThreads, QStringLiteral("client.threads"),
           client.arg(target,
                      QStringLiteral("'model': 'duration', 'concurrency': 100000, 'threads': %1")));
        in(F::timeoutMs, QStringLiteral("client.timeout_ms"),
           client.arg(target, QStringLiteral("'timeout_ms': %1")));
        in(F::rate, QStringLiteral("client.rate"),
           client.arg(target, QStringLiteral("'model': 'rate', 'rate': %1")));
        in(F::rampUp, QStringLiteral("client.ramp_up_seconds"),
           client.arg(target, QStringLiteral("'model': 'ramp', 'ramp_up_seconds': %1")));
        in(F::steady, QStringLiteral("client.steady_seconds"),
           client.arg(target, QStringLiteral("'model': 'ramp', 'steady_seconds': %1")));
        in(F::rampDown, QStringLiteral("client.ramp_down_seconds"),
           client.arg(target, QStringLiteral("'model': 'ramp', 'ramp_down_seconds': %1")));
        in(F::serverThreads, QStringLiteral("targets[0].threads"),
           QStringLiteral(
               "{'servelab': 1, 'targets': [{'builtin': 'epoll+copy', 'threads': %1}]}"));
        in(F::fdLimit, QStringLiteral("targets[0].fd_limit"),
           QStringLiteral(
               "{'servelab': 1, 'targets': [{'builtin': 'epoll+copy', 'fd_limit': %1}]}"));
        in(F::pid, QStringLiteral("targets[0].pid"),
           QStringLiteral(
               "{'servelab': 1, 'targets': [{'url': 'http://127.0.0.1:1/', 'pid': %1}]}"));
    }

    void theSpecReadsEachRowsRange()
    {
        QFETCH(const lab::SpecField *, field);
        QFETCH(QString, at);
        QFETCH(QString, spec);
        const QString refused = at + QStringLiteral(": ") + field->wants();
        for (qint64 fine : {field->low, field->high})
            QVERIFY2(specErrors(spec.arg(fine)).isEmpty(), qPrintable(specErrors(spec.arg(fine))));
        for (qint64 wrong : {field->low - 1, field->high + 1}) {
            const QString errors = specErrors(spec.arg(wrong));
            QVERIFY2(errors.contains(refused), qPrintable(errors));
        }
    }

    void rowsAreWhole()
    {
        for (const lab::SpecField *f :
             {&F::repetitions, &F::pointDeadlineMs, &F::warmupRequests, &F::cooldownMs,
              &F::filesPerSize, &F::requests, &F::concurrency, &F::seconds, &F::clientThreads,
              &F::timeoutMs, &F::rate, &F::rampUp, &F::steady, &F::rampDown, &F::serverThreads,
              &F::fdLimit, &F::pid}) {
            QVERIFY2(f->low <= f->high, f->path);
            QVERIFY2(f == &F::pid || f->contains(f->fallback), f->path); // pid 0: none
            QVERIFY2(f->spinHigh() <= f->high && f->spinHigh() > 0, f->path);
        }
        QCOMPARE(F::pointDeadlineMs.spinLow(1000), 1);
        QCOMPARE(F::pointDeadlineMs.spinHigh(1000), 86400);
        QCOMPARE(F::requests.spinHigh(), std::numeric_limits<int>::max());
    }

    // The models' names are read and written at the edges only, through their rows.
    void modelsByName()
    {
        for (const auto &row : client::loadModels()) {
            QCOMPARE(client::parseLoadModel(row.name), std::optional(row.model));
            QCOMPARE(client::loadModelName(row.model), row.name);
        }
        QVERIFY(!client::parseLoadModel("open"));
        // Every model runs in experiments; a name that is none of them is refused, naming them.
        lab::SweepSpec rate = lab::SweepSpec::defaults();
        rate.model = client::LoadModel::Rate;
        QCOMPARE(rate.validate(), QString());
        const QString unknown = specErrors(QStringLiteral(
            "{'servelab': 1, 'targets': [{'builtin': 'epoll+copy'}], 'client': {'model': 'open'}}"));
        for (const auto &row : client::loadModels())
            QVERIFY2(unknown.contains(QStringLiteral("\"%1\"").arg(QLatin1String(row.name))),
                     qPrintable(unknown));
    }

    // ab's rule and wrk's, said in the same words by `load`, the spec and the form, each naming
    // the fields as it knows them.
    void theRulesReadTheSameEverywhere()
    {
        QCOMPARE(ClientRules::check({true, 1, 64, 1}, FieldNaming::Flag).text(FieldNaming::Flag),
                 QStringLiteral("-c 64 cannot exceed -n (1), as in ab"));
        QCOMPARE(ClientRules::check({false, 1, 4, 8}, FieldNaming::Flag).text(FieldNaming::Flag),
                 QStringLiteral("--threads 8 cannot exceed -c (4): each thread needs its own "
                                "connection, as in wrk"));
        QVERIFY(!ClientRules::check({true, 64, 64, 999}, FieldNaming::Flag));
        QVERIFY(!ClientRules::check({false, 0, 8, 8}, FieldNaming::Flag));

        const QString target = QStringLiteral("'targets': [{'builtin': 'epoll+copy'}]");
        QVERIFY2(specErrors(QStringLiteral(
                                "{'servelab': 1, %1, 'client': {'requests': 1, 'concurrency': 64}}")
                                .arg(target))
                     .endsWith(QStringLiteral("client.concurrency: 64 cannot exceed "
                                              "client.requests (1), as in ab")),
                 "closed");
        QVERIFY2(specErrors(QStringLiteral("{'servelab': 1, %1, 'client': {'model': 'duration', "
                                           "'concurrency': 4, 'threads': 8}}")
                                .arg(target))
                     .endsWith(QStringLiteral("client.threads: 8 cannot exceed client.concurrency "
                                              "(4): each thread needs its own connection, as in "
                                              "wrk")),
                 "duration");

        lab::SweepSpec form = lab::SweepSpec::defaults();
        form.requests = 1;
        form.concurrency = 64;
        QCOMPARE(form.validate(), QStringLiteral("Concurrency 64 cannot exceed Requests per point "
                                                 "(1), as in ab"));
        form.requests = quint64(F::requests.high) + 1;
        QCOMPARE(form.validate(), QStringLiteral("Requests per point %1, not '%2'")
                                      .arg(F::requests.wants())
                                      .arg(F::requests.high + 1));
        form.requests = 200;
        form.serverThreads = 0;
        QCOMPARE(form.validate(), QStringLiteral("Server threads wants a whole number from 1 to "
                                                 "1024, not '0'"));
    }
};

QTEST_GUILESS_MAIN(TestClientRules)
#include "tst_clientrules.moc"
