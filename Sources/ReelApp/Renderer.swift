// SPDX-License-Identifier: GPL-3.0-or-later
import CShims
import Foundation

/// GTK draws a window with OpenGL when it can. On a software rasterizer (Mesa's llvmpipe:
/// virtual machines, containers, remote desktops, CI; told by the X server's lack of direct
/// rendering, or on Wayland by the lack of a GPU render node) its GL renderer re-rasterizes the window
/// through shaders on the CPU for every video frame: about a core for 30 fps, against a few
/// percent for its cairo renderer blitting frames already made the size they are shown at
/// (see BENCHMARKS.md). There Reel draws with cairo, and GTK does not initialise GL at all
/// (`gl-disable`: loading the rasterizer cost 55 MB and 40 ms before the first frame). A
/// GSK_RENDERER the user set wins. Programs Reel starts inherit the choice, which holds for
/// them too.
enum Renderer {
    /// Runs before GTK opens the display: GDK reads GDK_DEBUG only then.
    static func chooseBeforeGTKStarts() {
        guard getenv("GSK_RENDERER") == nil, reel_gl_will_be_software() != 0 else { return }
        setenv("GSK_RENDERER", "cairo", 0)
        let debug = getenv("GDK_DEBUG").map { String(cString: $0) } ?? ""
        setenv("GDK_DEBUG", debug.isEmpty ? "gl-disable" : debug + ",gl-disable", 1)
    }
}
