// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import Dispatch
import Foundation
import ReelGLib
import XCTest

/// What the C callbacks below report back (they cannot capture context).
nonisolated(unsafe) private var loop: OpaquePointer?
nonisolated(unsafe) private var taskRanOnMainThread = false

final class MainQueueBridgeTests: XCTestCase {
    override func setUp() {
        MainQueueBridge.install()
        loop = g_main_loop_new(nil, 0)
        taskRanOnMainThread = false
    }

    override func tearDown() {
        g_main_loop_unref(loop)
        loop = nil
    }

    /// Runs the GLib loop until something quits it, or 5 s pass.
    private func runLoop() {
        let timeout = g_timeout_add(5000, { _ in g_main_loop_quit(loop); return 0 }, nil)
        g_main_loop_run(loop)
        if g_main_context_find_source_by_id(nil, timeout) != nil { g_source_remove(timeout) }
    }

    /// Without the bridge, a main-actor task scheduled while GLib's loop owns the thread would
    /// never run; with it, the task runs inside the loop, on the main thread.
    func testMainActorTaskScheduledInsideTheGLibLoopRuns() {
        g_idle_add_full(G_PRIORITY_DEFAULT, { _ in
            Task { @MainActor in
                taskRanOnMainThread = Thread.isMainThread
                g_main_loop_quit(loop)
            }
            return 0
        }, nil, nil)
        runLoop()
        XCTAssertTrue(taskRanOnMainThread)
    }

    func testDispatchMainQueueBlocksFromOtherThreadsRunInsideTheGLibLoop() {
        DispatchQueue.global().async {
            DispatchQueue.main.async {
                taskRanOnMainThread = Thread.isMainThread
                g_main_loop_quit(loop)
            }
        }
        runLoop()
        XCTAssertTrue(taskRanOnMainThread)
    }
}
