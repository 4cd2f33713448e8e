// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace servelab::ui {

// The GUI thread ahead of the load. A run keeps both cores busy with client and server threads;
// the GUI thread needs little CPU (about 2 % of one core during a run) but, at the same
// priority, waits its turn behind a dozen busy threads after each point (measured: gaps of
// 60-85 ms, of which 13-16 ms its own work). Linux lets a thread run sooner with a lower nice
// value; with the same total CPU, the measuring threads lose nothing they would notice.
//
// raiseGuiThread(): the calling thread's nice value 5 below the process's, where the system
// allows it (root, CAP_SYS_NICE or RLIMIT_NICE); false otherwise, and nothing changes.
bool raiseGuiThread();
// For a thread the GUI thread starts (it inherits the raised value): back to the process's.
void restoreNormalPriority();

} // namespace servelab::ui
