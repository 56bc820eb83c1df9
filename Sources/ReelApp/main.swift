// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelEngine
import ReelGLib

// Run again by the crash handler: put the report's stack into words, then end.
if let report = ProcessInfo.processInfo.environment["REEL_SYMBOLIZE_CRASH_REPORT"] {
    CrashReportSymbolizer.run(report: report)
    exit(0)
}

// The environment and the locale are settled while this is the process's only thread: glibc
// 2.36's setenv reallocates the array of names when it adds one, under a getenv that another
// thread (gst_init) may be walking (an activated Reel died of SIGSEGV at start-up in CI).
Renderer.chooseBeforeGTKStarts()
setUpLocalization(domain: BuildInfo.gettextDomain, localeDirectory: BuildInfo.localeDirectory)
MainActor.assumeIsolated {
    UIDefinition.registerResources()
    GTKMediaModules.registerLazilyWhileGTKStarts()
}
// GStreamer and its common plugins load on a thread of their own while GTK starts here.
GStreamer.startInBackground()
// A synchronous main: `g_application_run` owns the thread, and the bridge lets Swift's
// main-actor work run inside the GLib loop (an `async` main would end in dispatch_main()).
MainQueueBridge.install()
let status = MainActor.assumeIsolated { ReelApplication().run(arguments: CommandLine.arguments) }
exit(status)
