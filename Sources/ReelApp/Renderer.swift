import CShims
import Foundation

/// GTK draws a window with OpenGL when it can. On a software rasterizer (Mesa's llvmpipe:
/// virtual machines, containers, remote desktops, CI) its GL renderer re-rasterizes the window
/// through shaders on the CPU for every video frame: about a core for 30 fps, against a few
/// percent for its cairo renderer blitting frames already made the size they are shown at
/// (see BENCHMARKS.md). There Reel draws with cairo and keeps GL from starting at all, which
/// also spares loading the rasterizer (about 60 MB and 70 ms to the first frame, measured).
/// A GSK_RENDERER or GDK_DEBUG the user set wins. Runs before GTK opens the display.
enum Renderer {
    static func preferCairoOnSoftwareGL() {
        guard getenv("GSK_RENDERER") == nil, getenv("GDK_DEBUG") == nil, reel_gl_is_software() != 0 else { return }
        setenv("GSK_RENDERER", "cairo", 0)
        setenv("GDK_DEBUG", "gl-disable", 0)
    }
}
