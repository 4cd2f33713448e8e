// SPDX-License-Identifier: Apache-2.0
#include "clientpage.h"
#include "environmentpage.h"
#include "experimentwizard.h"
#include "hostspage.h"
#include "reviewpage.h"
#include "targetspage.h"
#include "tls/tlsservercontext.h"
#include "workloadpage.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

namespace {

lab::ExperimentSpec preset(const QString &name)
{
    QFile file(QStringLiteral(":/presets/%1.json").arg(name));
    file.open(QIODevice::ReadOnly);
    lab::ExperimentSpec spec;
    QStringList errors;
    if (!lab::ExperimentSpec::parse(file.readAll(), name, &spec, &errors))
        qFatal("%s", qPrintable(errors.join(u'\n')));
    return spec;
}

QString shownProblem(QWizardPage *page)
{
    auto *label = page->findChild<QLabel *>(QStringLiteral("pageProblem"));
    return label && label->isVisibleTo(page) ? label->text() : QString();
}

} // namespace

class TestExperimentWizard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Next waits for a target, with the reason shown; the form's mistakes are named.
    void targetsPage()
    {
        ui::ExperimentWizard wizard;
        wizard.show();
        auto *page = wizard.targetsPage();
        QCOMPARE(wizard.currentId(), int(ui::ExperimentWizard::Targets));
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        QCOMPARE(page->problem(), QStringLiteral("Add at least one target."));

        auto *kind = page->findChild<QComboBox *>();
        kind->setCurrentIndex(2); // a URL
        const auto edits = page->findChildren<QLineEdit *>();
        QLineEdit *url = nullptr;
        for (auto *edit : edits)
            if (edit->placeholderText().startsWith(QStringLiteral("http://")))
                url = edit;
        QVERIFY(url);
        url->setText(QStringLiteral("https://example.org/"));
        QVERIFY(!page->addFormTarget());
        QVERIFY2(shownProblem(page).contains(QStringLiteral("is not a URL ServeLab can load")),
                 qPrintable(shownProblem(page)));
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        url->setText(QStringLiteral("http://127.0.0.1:8080/files/"));
        QVERIFY(page->addFormTarget());
        QCOMPARE(page->targetCount(), 1);
        QVERIFY(shownProblem(page).isEmpty());
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());

        kind->setCurrentIndex(0); // built-in, with an option written wrong
        QLineEdit *options = nullptr;
        for (auto *edit : edits)
            if (edit->placeholderText().startsWith(QStringLiteral("chunk=")))
                options = edit;
        options->setText(QStringLiteral("chunk"));
        QVERIFY(!page->addFormTarget());
        QVERIFY(page->problem().contains(QStringLiteral("'chunk' is not an option")));
        // What serve would refuse is refused here, in serve's words, as it is typed.
        options->setText(QStringLiteral("frobnicate=yes"));
        QVERIFY2(shownProblem(page).contains(QStringLiteral("--frobnicate is not a server option")),
                 qPrintable(shownProblem(page)));
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        QVERIFY(!page->addFormTarget());
        QVERIFY2(page->problem().contains(QStringLiteral("--frobnicate is not a server option")),
                 qPrintable(page->problem()));
        options->setText(QStringLiteral("sendfile-threshold=abc"));
        QVERIFY(!page->addFormTarget());
        QVERIFY2(page->problem().contains(
                     QStringLiteral("--sendfile-threshold wants a size from 1 to 64M")),
                 qPrintable(page->problem()));
        // Options are the child's: the own-process box is ticked and cannot be unticked.
        auto *ownProcess = page->findChild<QCheckBox *>();
        options->clear();
        QVERIFY(ownProcess->isChecked() && ownProcess->isEnabled());
        ownProcess->setChecked(false);
        options->setText(QStringLiteral("chunk=81000"));
        QVERIFY(ownProcess->isChecked());
        QVERIFY(!ownProcess->isEnabled());
        QVERIFY(page->addFormTarget());
        lab::ExperimentSpec spec;
        page->apply(spec);
        QCOMPARE(spec.targets.size(), 2);
        QCOMPARE(spec.targets[1].serverArguments,
                 (QStringList{QStringLiteral("--chunk"), QStringLiteral("81000")}));
    }

    // wrk2's and faban's models have their forms too, from their rows, with their commands;
    // what the page writes is a spec that reads back the same.
    void rateAndRampForms()
    {
        ui::ExperimentWizard wizard;
        auto *client = wizard.clientPage();
        auto *model = client->findChild<QComboBox *>();
        model->setCurrentIndex(model->findData(int(client::LoadModel::Rate)));
        QCOMPARE(client->equivalent(),
                 QStringLiteral("wrk2 -R 1000 -d 10s -c 96 -t 8 --timeout 30s URL"));
        QVERIFY(client->isComplete());
        // Several offered rates: every target at each (the Latency vs load tab).
        auto *rates =
            client->findChild<QStackedWidget *>()->currentWidget()->findChild<QLineEdit *>(
                QStringLiteral("rates"));
        rates->setText(QStringLiteral("1000,x"));
        QCOMPARE(client->problem(), QStringLiteral("Offered rate (req/s) wants a whole number from "
                                                   "1 to 10000000, not 'x'"));
        rates->setText(QStringLiteral("1000,2000,4000"));
        QVERIFY(client->isComplete());
        lab::ExperimentSpec offered;
        offered.targets = {lab::SweepSpec::defaults()};
        client->apply(offered);
        QCOMPARE(offered.rates, (QList<qint64>{1000, 2000, 4000}));
        QCOMPARE(offered.expanded().size(), 3);
        model->setCurrentIndex(model->findData(int(client::LoadModel::Ramp)));
        QCOMPARE(client->equivalent(), QStringLiteral("fhb -r 5/30/5 -c 96 URL"));
        auto *page = client->findChild<QStackedWidget *>()->currentWidget();
        QLineEdit *think = page->findChild<QLineEdit *>();
        QVERIFY(think);
        think->setText(QStringLiteral("sometimes"));
        QVERIFY(!client->isComplete());
        QVERIFY2(client->problem().startsWith(
                     QStringLiteral("Think time: 'sometimes' is not a think time")),
                 qPrintable(client->problem()));
        think->setText(QStringLiteral("fixed:250ms"));
        QVERIFY(client->isComplete());
        QCOMPARE(client->equivalent(), QStringLiteral("fhb -r 5/30/5 -c 96 -W 250 URL"));

        lab::ExperimentSpec spec;
        spec.targets = {lab::SweepSpec::defaults()};
        client->apply(spec);
        QCOMPARE(spec.targets[0].model, client::LoadModel::Ramp);
        QCOMPARE(spec.targets[0].think, QStringLiteral("fixed:250ms"));
        QCOMPARE(spec.targets[0].steadyMs, 30'000);
        lab::ExperimentSpec again;
        QStringList errors;
        QVERIFY2(
            lab::ExperimentSpec::parse(spec.toJson(), QStringLiteral("w.json"), &again, &errors),
            qPrintable(errors.join(u'\n')));
        QCOMPARE(again.toJson(), spec.toJson());
        // And back into the page: the ramp form shows what the spec holds.
        ui::ExperimentWizard other;
        other.clientPage()->load(again);
        QCOMPARE(other.clientPage()->equivalent(), client->equivalent());
    }

    // Each field is checked as it is typed; the client page names the ab or wrk command.
    void workloadAndClientPages()
    {
        ui::ExperimentWizard wizard;
        auto *workload = wizard.workloadPage();
        auto *sizes = workload->findChild<QLineEdit *>(QStringLiteral("sizes"));
        sizes->setText(QStringLiteral("lots"));
        QVERIFY(!workload->isComplete());
        QVERIFY2(workload->problem().startsWith(QStringLiteral("Sizes: ")),
                 qPrintable(workload->problem()));
        sizes->setText(QStringLiteral("4K..64K"));
        QVERIFY(workload->isComplete());
        // The transport: http and https side by side, and a list no entry offers kept whole.
        auto *transport = workload->findChild<QComboBox *>(QStringLiteral("transport"));
        transport->setCurrentIndex(2);
        lab::ExperimentSpec over;
        over.targets = {lab::SweepSpec::defaults()};
        workload->apply(over);
        QCOMPARE(over.transports, (QStringList{QStringLiteral("http"), QStringLiteral("https")}));
        QCOMPARE(over.expanded().size(), 2);
        over.transports = {QStringLiteral("https:resume")};
        workload->load(over);
        lab::ExperimentSpec back;
        back.targets = {lab::SweepSpec::defaults()};
        workload->apply(back);
        QCOMPARE(back.transports, QStringList{QStringLiteral("https:resume")});

        auto *client = wizard.clientPage();
        QCOMPARE(client->equivalent(), QStringLiteral("ab -n 200 -c 1 -s 30 URL"));
        auto *concurrency = client->findChild<QLineEdit *>(QStringLiteral("concurrency"));
        concurrency->setText(QStringLiteral("1,x"));
        QCOMPARE(client->problem(),
                 QStringLiteral("Concurrency wants a whole number from 1 to 100000, not 'x'"));
        concurrency->setText(QStringLiteral("1,10,500"));
        QCOMPARE(
            client->problem(),
            QStringLiteral("Concurrency 500 cannot exceed Requests per point (200), as in ab"));
        concurrency->setText(QStringLiteral("1,10,100"));
        QVERIFY(client->isComplete());
        auto *model = client->findChild<QComboBox *>();
        model->setCurrentIndex(1); // wrk
        QCOMPARE(client->equivalent(), QStringLiteral("wrk -d 10s -c 96 -t 8 --timeout 30s URL"));
        // Each model has its own form: the one shown is wrk's.
        auto *connections =
            client->findChild<QStackedWidget *>()->currentWidget()->findChild<QSpinBox *>(
                QStringLiteral("connections"));
        connections->setValue(4);
        QCOMPARE(client->problem(),
                 QStringLiteral("Client threads 8 cannot exceed Concurrency (4): "
                                "each thread needs its own connection, as in wrk"));
        QVERIFY(!client->isComplete());
        connections->setValue(96);
        QVERIFY(client->isComplete());
        lab::ExperimentSpec spec;
        spec.targets = {lab::SweepSpec::defaults()};
        client->apply(spec);
        QCOMPARE(spec.targets[0].model, client::LoadModel::Duration);
        QCOMPARE(spec.targets[0].clientThreads, 8);
        QVERIFY(spec.concurrencies.isEmpty()); // the list is ab's

        auto *environment = wizard.environmentPage();
        auto *option = environment->findChild<QLineEdit *>(QStringLiteral("sweepOption"));
        environment->findChild<QLineEdit *>(QStringLiteral("sweepValues"))
            ->setText(QStringLiteral("0,64K"));
        QVERIFY(environment->problem().contains(QStringLiteral("Name the option")));
        option->setText(QStringLiteral("Sendfile Threshold"));
        QVERIFY(environment->problem().contains(QStringLiteral("not a server option name")));
        // A name serve does not know, or a value it would refuse, is refused here, in its words.
        option->setText(QStringLiteral("banana"));
        QVERIFY2(environment->problem().contains(QStringLiteral("--banana is not a server option")),
                 qPrintable(environment->problem()));
        QVERIFY(!environment->isComplete());
        option->setText(QStringLiteral("sendfile-threshold"));
        environment->findChild<QLineEdit *>(QStringLiteral("sweepValues"))
            ->setText(QStringLiteral("0,abc"));
        QVERIFY2(environment->problem().contains(QStringLiteral("--sendfile-threshold wants")),
                 qPrintable(environment->problem()));
        environment->findChild<QLineEdit *>(QStringLiteral("sweepValues"))
            ->setText(QStringLiteral("1,64K"));
        QVERIFY2(environment->isComplete(), qPrintable(environment->problem()));

        // Profiling: off by default; on, at every size or at some, checked as typed.
        auto *profile = environment->findChild<QCheckBox *>(QStringLiteral("profile"));
        auto *profileSizes = environment->findChild<QLineEdit *>(QStringLiteral("profileSizes"));
        QVERIFY(!profile->isChecked());
        QVERIFY(!profileSizes->isEnabled());
        profile->setChecked(true);
        QVERIFY(profileSizes->isEnabled());
        profileSizes->setText(QStringLiteral("12,huge"));
        QVERIFY2(environment->problem().contains(QStringLiteral("--profile wants")),
                 qPrintable(environment->problem()));
        profileSizes->setText(QStringLiteral("12,1M"));
        QVERIFY2(environment->isComplete(), qPrintable(environment->problem()));
        environment->apply(spec);
        QVERIFY(spec.targets[0].profile.wants(12));
        QVERIFY(!spec.targets[0].profile.wants(4096));
        QVERIFY(spec.toJson().contains("\"profile\""));
        profile->setChecked(false);
        environment->apply(spec);
        QVERIFY(!spec.targets[0].profile.enabled);
    }

    // A row picked in the list is shown in the form and updated in place; the same target twice
    // is refused; a real server not installed here is marked in the list, warned of on the
    // review page (not an error: the others can run), and dropped with one button.
    void targetsAreEditedInPlaceAndWarnedOf()
    {
        qputenv("TOMCAT_HOME", "/nonexistent/tomcat"); // tomcat is not installed, whatever is
        ui::ExperimentWizard wizard;
        lab::ExperimentSpec spec = preset(QStringLiteral("ab-c300-maxthreads"));
        lab::SweepSpec tomcat = spec.targets.first();
        tomcat.target = QStringLiteral("tomcat");
        tomcat.serverArguments.clear();
        spec.targets << tomcat;
        wizard.setSpec(spec);
        wizard.show();
        auto *page = wizard.targetsPage();
        auto *list = page->findChild<QListWidget *>();
        QCOMPARE(list->count(), 3);
        QVERIFY2(list->item(2)->text().endsWith(QStringLiteral("not installed here")),
                 qPrintable(list->item(2)->text()));
        QVERIFY(list->item(2)->toolTip().contains(QStringLiteral("apt-get install tomcat10")));
        QVERIFY(!list->item(2)->icon().isNull());

        // Picking the first shows it; the same again is refused, a change updates the row.
        list->setCurrentRow(0);
        auto *threads = page->findChild<QSpinBox *>(QStringLiteral("threads"));
        QCOMPARE(threads->value(), spec.targets[0].serverThreads);
        QVERIFY(!page->addFormTarget());
        QVERIFY2(page->problem().contains(QStringLiteral("in the list already")),
                 qPrintable(page->problem()));
        QVERIFY(!page->isComplete());
        threads->setValue(threads->value() + 1); // the refusal is out of date: Next is free
        QVERIFY2(page->problem().isEmpty(), qPrintable(page->problem()));
        QVERIFY(page->isComplete());
        threads->setValue(200);
        QVERIFY2(page->updateSelectedTarget(), qPrintable(page->problem()));
        QCOMPARE(list->count(), 3);
        lab::ExperimentSpec applied;
        page->apply(applied);
        QCOMPARE(applied.targets[0].serverThreads, 200);
        // Made the same as the second: refused, the list unchanged.
        threads->setValue(spec.targets[1].serverThreads);
        QVERIFY(!page->updateSelectedTarget());
        page->apply(applied);
        QCOMPARE(applied.targets[0].serverThreads, 200);
        threads->setValue(200);
        // A label: checked as it is typed, then shown after the name.
        auto *label = page->findChild<QLineEdit *>(QStringLiteral("label"));
        label->setText(QStringLiteral("a label far longer than the forty characters allowed"));
        QVERIFY2(page->problem().contains(QStringLiteral("at most 40 characters")),
                 qPrintable(page->problem()));
        QVERIFY(!page->isComplete());
        label->setText(QStringLiteral("Coyote BIO's analogue"));
        QVERIFY2(page->updateSelectedTarget(), qPrintable(page->problem()));
        page->apply(applied);
        QCOMPARE(applied.targets[0].label(),
                 QStringLiteral("blocking+copy (Coyote BIO's analogue)"));
        QVERIFY(list->item(0)->text().startsWith(QStringLiteral("blocking+copy (Coyote BIO's")));
        // Tune steps: checked as they are typed, in the words of servelab-cli tune.
        auto *tune = page->findChild<QLineEdit *>(QStringLiteral("tune"));
        tune->setText(QStringLiteral("1000 ms: backlog=9"));
        QVERIFY2(page->problem().contains(QStringLiteral("backlog cannot change while the "
                                                         "server runs")),
                 qPrintable(page->problem()));
        QVERIFY(!page->isComplete());
        tune->setText(QStringLiteral("soon: threads=8"));
        QVERIFY2(page->problem().contains(QStringLiteral("is not a tune step")),
                 qPrintable(page->problem()));
        tune->setText(QStringLiteral("3000 ms: chunk=64K; 1000: threads=300"));
        QVERIFY2(page->updateSelectedTarget(), qPrintable(page->problem()));
        page->apply(applied);
        QCOMPARE(applied.targets[0].tune.size(), 2);
        QCOMPARE(applied.targets[0].tune[0].atMs, 1000);
        list->setCurrentRow(1); // picked again, the form shows what the list has
        list->setCurrentRow(0);
        QCOMPARE(tune->text(), QStringLiteral("1000 ms: threads=300; 3000 ms: chunk=64K"));

        for (int i = 0; i < 5; ++i) // to the review, through the hosts page
            wizard.next();
        auto *review = wizard.reviewPage();
        QCOMPARE(review->missingServers().size(), 1);
        QVERIFY(review->missingServers().first().startsWith(
            QStringLiteral("tomcat is not installed on this machine")));
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());
        review->dropMissingServers();
        QVERIFY(review->missingServers().isEmpty());
        QCOMPARE(wizard.spec().targets.size(), 2);
        qunsetenv("TOMCAT_HOME");
    }

    // The review lists, before Run, what this machine will refuse, in words naming the fix:
    // profiled sizes the experiment does not measure, sendfile over https without kernel TLS.
    void reviewWarnsOfWhatThisMachineRefuses()
    {
        ui::ExperimentWizard wizard;
        lab::ExperimentSpec spec;
        spec.name = QStringLiteral("warned");
        lab::SweepSpec t = lab::SweepSpec::defaults();
        t.mode = QStringLiteral("epoll+sendfile");
        t.sizes = {4096, 1 << 20};
        t.profile.enabled = true;
        t.profile.sizes = {2 << 20};
        spec.targets = {t};
        spec.transports = {QStringLiteral("http"), QStringLiteral("https")};
        wizard.setSpec(spec);
        wizard.show();
        for (int i = 0; i < 5; ++i)
            wizard.next();
        const QStringList warnings = wizard.reviewPage()->warnings();
        QVERIFY2(warnings.filter(QStringLiteral("profiled size 2M is not among the sizes measured "
                                                "(4K,1M)"))
                         .size() == 1,
                 qPrintable(warnings.join(u'\n')));
        const bool kernelTls = tls::TlsServerContext::kernelTlsMissing().empty();
        QCOMPARE(warnings.filter(QStringLiteral("epoll+sendfile over https is kernel TLS")).size(),
                 kernelTls ? 0 : 1);
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled()); // warnings, not problems
    }

    // The name follows what the experiment holds until the user types one; a preset keeps its
    // own while its content is unchanged (presetRoundTripsThroughEveryPage).
    void nameFollowsTheContent()
    {
        ui::ExperimentWizard wizard;
        lab::ExperimentSpec spec = preset(QStringLiteral("sendfile-threshold"));
        wizard.setSpec(spec);
        wizard.show();
        wizard.next();
        auto *sizes = wizard.workloadPage()->findChild<QLineEdit *>();
        sizes->setText(QStringLiteral("4K,1M"));
        for (int i = 0; i < 4; ++i)
            wizard.next();
        QCOMPARE(wizard.currentId(), int(ui::ExperimentWizard::Review));
        QVERIFY2(wizard.spec().name.endsWith(QStringLiteral(" over 4K,1M")),
                 qPrintable(wizard.spec().name));
        auto *name = wizard.reviewPage()->findChild<QLineEdit *>();
        name->clear();
        QTest::keyClicks(name, QStringLiteral("mine"));
        wizard.back();
        wizard.next();
        QCOMPARE(wizard.spec().name, QStringLiteral("mine"));
    }

    // The hosts page: no file is this machine; a file is read as typed (its summary, or its
    // line and field when wrong); a target a server host cannot run is named; the spec keeps it.
    void hostsPageReadsTheFileAsTyped()
    {
        QTemporaryDir dir;
        const auto write = [&](const QString &name, const QByteArray &text) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(text);
        };
        write(QStringLiteral("hosts.json"), R"({"servelab": 1,
  "server": {"host": "web1", "address": "10.0.0.1"},
  "load": [{"host": "load1"}, {"host": "load2", "weight": 2}]})");
        write(QStringLiteral("bad.json"), R"({"servelab": 1,
  "server": {"host": "web1"}, "load": [{"host": "load1"}]})");
        ui::ExperimentWizard wizard;
        wizard.setSpec(preset(QStringLiteral("sendfile-threshold")));
        wizard.show();
        for (int i = 0; i < 4; ++i)
            wizard.next();
        QCOMPARE(wizard.currentId(), int(ui::ExperimentWizard::Hosts));
        auto *page = wizard.hostsPage();
        QVERIFY(page->isComplete());
        QVERIFY(page->summary().contains(QStringLiteral("this machine")));
        page->fileEdit()->setText(dir.filePath(QStringLiteral("hosts.json")));
        QVERIFY2(page->isComplete(), qPrintable(page->problem()));
        QVERIFY2(page->summary().contains(QStringLiteral("Server: web1, reached by the load hosts "
                                                         "at 10.0.0.1 (ssh)")) &&
                     page->summary().contains(QStringLiteral("load2 (weight 2, ssh)")),
                 qPrintable(page->summary()));
        page->fileEdit()->setText(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(!page->isComplete());
        QVERIFY2(page->problem().contains(QStringLiteral("bad.json:2: server: \"address\" is "
                                                         "missing")),
                 qPrintable(page->problem()));
        page->fileEdit()->setText(dir.filePath(QStringLiteral("hosts.json")));
        wizard.next();
        QCOMPARE(wizard.spec().hosts, dir.filePath(QStringLiteral("hosts.json")));

        // A real server cannot run on a server host yet: said on the page.
        lab::ExperimentSpec nginx = preset(QStringLiteral("sendfile-threshold"));
        nginx.targets[0].target = QStringLiteral("nginx");
        nginx.hosts = dir.filePath(QStringLiteral("hosts.json"));
        page->load(nginx);
        QVERIFY(!page->isComplete());
        QVERIFY2(page->problem().contains(QStringLiteral("only built-in servers")),
                 qPrintable(page->problem()));
    }

    // A preset opens pre-filled and comes out the same; the review page shows the JSON, checks
    // edits, and Run (Finish) gives what it shows.
    void presetRoundTripsThroughEveryPage()
    {
        for (const QString &name :
             {QStringLiteral("ab-c300-maxthreads"), QStringLiteral("poller-handoff"),
              QStringLiteral("sendfile-threshold"), QStringLiteral("ulimit-1024"),
              QStringLiteral("latency-vs-load"), QStringLiteral("seed002-realistic-keepalive"),
              QStringLiteral("seed003-grizzly-faban")}) {
            const lab::ExperimentSpec original = preset(name);
            ui::ExperimentWizard wizard;
            wizard.setSpec(original);
            wizard.show();
            for (int page = 0; page < 5; ++page) {
                QVERIFY2(
                    wizard.currentPage()->isComplete(),
                    qPrintable(name + QStringLiteral(": ") + shownProblem(wizard.currentPage())));
                wizard.next();
            }
            QCOMPARE(wizard.currentId(), int(ui::ExperimentWizard::Review));
            QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());
            QCOMPARE(wizard.spec().toJson(), original.toJson());
        }
        // The first page starts from any preset, named by what it reproduces.
        {
            ui::ExperimentWizard fromChooser;
            auto *chooser = fromChooser.findChild<QComboBox *>(QStringLiteral("wizardPresets"));
            const int i = chooser->findData(QStringLiteral("sendfile-threshold"));
            QVERIFY(i > 0);
            QVERIFY2(chooser->itemText(i).startsWith(QStringLiteral("seed 002")),
                     qPrintable(chooser->itemText(i)));
            Q_EMIT chooser->activated(i);
            fromChooser.show();
            for (int page = 0; page < 5; ++page)
                fromChooser.next();
            QCOMPARE(fromChooser.spec().toJson(),
                     preset(QStringLiteral("sendfile-threshold")).toJson());
        }
        ui::ExperimentWizard wizard;
        wizard.setSpec(preset(QStringLiteral("ab-c300-maxthreads")));
        wizard.show();
        for (int page = 0; page < 5; ++page)
            wizard.next();
        auto *json = wizard.reviewPage()->findChild<QPlainTextEdit *>(QStringLiteral("reviewJson"));
        json->setPlainText(QStringLiteral("{\"servelab\": 1, \"targets\": []}"));
        QVERIFY(!wizard.button(QWizard::FinishButton)->isEnabled());
        QVERIFY(wizard.reviewPage()->problem().contains(QStringLiteral("1 problem")));
        json->setPlainText(QStringLiteral("{\"servelab\": 1, \"name\": \"edited\", \"targets\": "
                                          "[{\"builtin\": \"epoll+copy\"}]}"));
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());
        QCOMPARE(wizard.spec().name, QStringLiteral("edited"));
        QTemporaryDir dir;
        QString error;
        QVERIFY(wizard.reviewPage()->save(dir.filePath(QStringLiteral("x.json")), &error));
        QVERIFY(!wizard.reviewPage()->save(QStringLiteral("/proc/none/x.json"), &error));
        QVERIFY(error.contains(QStringLiteral("/proc/none/x.json")));
    }
};

QTEST_MAIN(TestExperimentWizard)
#include "tst_experimentwizard.moc"
