// A backtrace of every thread of the process on stderr when it gets SIGQUIT (`kill -QUIT PID`), for
// a run that hangs on a machine with no debugger: a watchdog sends the signal and the log shows
// where each thread waits. The process then goes on as before; each SIGQUIT dumps again (one that
// comes during a dump is ignored).
//
// The dump starts with the load base of each of our modules (the bench, libgstvkcompute.so) as
// /proc/self/maps gives it. Frames print as `module(+0xOFFSET)` or `module(symbol+0xOFF)[0xADDR]`;
// an offset, or ADDR less the module's base, names the line in the unstripped build:
//   addr2line -f -C -i -e build/gst/libgstvkcompute.so 0xOFFSET
// (a caller's frame is a return address: OFFSET - 1 names the line of the call).
// A thread that blocks the dump's signal (lavapipe's block them all) shows only the system call it
// is in, with its stack pointer and program counter (/proc/self/task/TID/syscall).
#pragma once

namespace bench {

// Installs the SIGQUIT handler (once, at start: it takes a real-time signal of its own for the
// threads' dumps and loads the unwinder). Returns false when no signal was free.
bool install_thread_dump();

}  // namespace bench
