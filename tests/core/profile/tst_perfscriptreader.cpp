// SPDX-License-Identifier: Apache-2.0
#include "os/threadname.h"
#include "profile/perfscriptreader.h"

#include <QTest>

using namespace servelab;
using profile::PerfScriptReader;

namespace {

// What perf 6.1's `perf script --no-inline --show-switch-events -F
// comm,tid,time,period,event,trace,ip,sym,dso` printed for the poller server, cut down: a
// cpu-clock sample, a thread blocking on a mutex and coming back 250 µs later, a client
// thread's sample, and a block that never ends within the recording.
const char *const recording = R"(servelab-server  8821 100.000100: PERF_RECORD_SWITCH IN         
servelab-server  8826 100.000200:    2004008          cpu-clock: 
	ffffffff816d9322 __x64_sys_pread64 ([kernel.kallsyms])
	          f6417 __libc_pread (/usr/lib/x86_64-linux-gnu/libc.so.6)
	          28fb14 servelab::server::CopyTransfer::write (/work/bin/servelab-cli)
	          164ca9 servelab::server::(anonymous namespace)::PoolWorker::run (/work/bin/servelab-cli)
	           d44a3 [unknown] (/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30)

servelab-server  8821 100.001000:          1 sched:sched_switch: prev_comm=servelab-server prev_pid=8821 prev_prio=120 prev_state=S ==> next_comm=wrk next_pid=15669 next_prio=120
	ffffffff82267448 __schedule ([kernel.kallsyms])
	ffffffff8144f296 futex_do_wait ([kernel.kallsyms])
	           8612b __GI___lll_lock_wait (/usr/lib/x86_64-linux-gnu/libc.so.6)
	          15a46a __gthread_mutex_lock (/work/bin/servelab-cli)
	          15a4bb std::mutex::lock (/work/bin/servelab-cli)
	          1670b5 servelab::server::PollerShared::push (/work/bin/servelab-cli)
	          259221 servelab::server::ConnectionWatcher::run (/work/bin/servelab-cli)

servelab-server  8821 100.001050: PERF_RECORD_SWITCH OUT        
servelab-server  8821 100.001250: PERF_RECORD_SWITCH IN         
servelab-client  8830 100.001300:    2004008          cpu-clock: 
	          10ac4d __libc_sendmsg (/usr/lib/x86_64-linux-gnu/libc.so.6)

servelab-server  8826 100.002000:          1 sched:sched_switch: prev_comm=servelab-server prev_pid=8826 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
	          85f16 __futex_abstimed_wait_common (/usr/lib/x86_64-linux-gnu/libc.so.6)
	          167c20 std::condition_variable::wait (/work/bin/servelab-cli)

a line perf never prints
)";

void feed(PerfScriptReader *reader)
{
    for (const QString &line : QString::fromUtf8(recording).split(u'\n'))
        reader->addLine(line);
    reader->finish();
}

} // namespace

class TestPerfScriptReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void onCpuSamplesWeighTheirPeriod()
    {
        PerfScriptReader reader;
        feed(&reader);
        // Root first, kernel frames marked, an unknown frame named by its library.
        const QString stack = QStringLiteral(
            "[unknown] libstdc++.so.6.0.30;"
            "servelab::server::(anonymous namespace)::PoolWorker::run;"
            "servelab::server::CopyTransfer::write;__libc_pread;__x64_sys_pread64 [k]");
        QCOMPARE(reader.onCpu().weights().value(stack), 2004.008);
        QCOMPARE(reader.onCpu().weights().value(QStringLiteral("__libc_sendmsg")), 2004.008);
        QCOMPARE(reader.onCpu().size(), 2);
        QCOMPARE(reader.unreadLines(), 1);
        QCOMPARE(reader.samples(), 4);
    }

    void aBlockLastsUntilItsThreadRunsAgain()
    {
        PerfScriptReader reader;
        feed(&reader);
        // The mutex wait: from its sched_switch at .001000 to the switch in at .001250.
        QCOMPARE(reader.offCpu().size(), 1);
        const auto &[stack, micros] = *reader.offCpu().weights().constKeyValueBegin();
        QVERIFY(stack.startsWith(
            QStringLiteral("servelab::server::ConnectionWatcher::run;"
                           "servelab::server::PollerShared::push;std::mutex::lock")));
        QVERIFY(stack.endsWith(QStringLiteral("futex_do_wait [k];__schedule [k]")));
        QVERIFY(qAbs(micros - 250.0) < 0.01);
        // The condition-variable wait never saw its thread back: no length, dropped.
    }

    void theClientsThreadsCanBeLeftOut()
    {
        PerfScriptReader reader;
        reader.setThreadFilter(
            [](QStringView comm) { return comm != QLatin1StringView(os::ThreadName::client); });
        feed(&reader);
        QCOMPARE(reader.onCpu().size(), 1);
        QVERIFY(!reader.onCpu().weights().contains(QStringLiteral("__libc_sendmsg")));
        QCOMPARE(reader.offCpu().size(), 1);
    }

    void foldedTextReadsBackTheSame()
    {
        PerfScriptReader reader;
        feed(&reader);
        const QString text = reader.onCpu().text();
        int skipped = -1;
        const auto again =
            profile::FoldedStacks::parse(text + QStringLiteral("not folded\n"), &skipped);
        QCOMPARE(skipped, 1);
        QCOMPARE(again.text(), text);
        QCOMPARE(again.total(), 2 * 2004.0);       // whole µs in the text
        QCOMPARE(reader.onCpu().medianDepth(), 1); // half the weight is the one-frame stack
    }
};

QTEST_GUILESS_MAIN(TestPerfScriptReader)
#include "tst_perfscriptreader.moc"
