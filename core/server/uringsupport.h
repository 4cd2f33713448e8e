// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace servelab::server {

// Whether the `uring` model can run here: built with liburing, and the kernel lets this
// process set up a ring with the operations the model uses. When not, *reason says why in one
// sentence (and what to do). Checked once per process.
bool uringAvailable(std::string *reason = nullptr);

} // namespace servelab::server
