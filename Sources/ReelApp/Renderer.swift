import CShims
import Foundation

/// GTK draws a window with OpenGL when it can. On a software rasterizer (Mesa's llvmpipe:
/// virtual machines, containers, remote desktops, CI; told by the X server's lack of direct
/// rendering, or on Wayland by the lack of a GPU render node) its GL renderer re-rasterizes the window
/// through shaders on the CPU for every video frame: about a core for 30 fps, against a few
/// percent for its cairo renderer blitting frames already made the size they are shown at
/// (see BENCHMARKS.md). There Reel draws with cairo; a GSK_RENDERER the user set wins.
/// (`GDK_DEBUG=gl-disable` as well would spare loading the rasterizer, about 60 MB, but must be
/// set before GTK opens the display, and this check needs the display.)
/// Runs once GTK has opened the display (the check may ask the X server) and before any window
/// is realized: GTK picks a window's renderer then.
enum Renderer {
    static func preferCairoOnSoftwareGL() {
        guard getenv("GSK_RENDERER") == nil, reel_gl_is_software() != 0 else { return }
        setenv("GSK_RENDERER", "cairo", 0)
    }
}
