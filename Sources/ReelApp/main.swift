import CGio
import ReelEngine
import ReelGLib

// A synchronous main: `g_application_run` owns the thread, and the bridge lets Swift's
// main-actor work run inside the GLib loop (an `async` main would end in dispatch_main()).
setUpLocalization(domain: BuildInfo.gettextDomain, localeDirectory: BuildInfo.localeDirectory)
MainQueueBridge.install()
let status = MainActor.assumeIsolated {
    ReelApplication().run(arguments: CommandLine.arguments)
}
exit(status)
