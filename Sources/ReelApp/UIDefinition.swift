// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import Foundation
import ReelGLib

/// One of Reel's GtkBuilder files (data/ui/), read from the app's GResource. The builder keeps
/// its objects alive while this lives: parent a widget, or present a window, before it goes.
@MainActor
struct UIDefinition {
    static let resourcePath = "/org/reelplayer/Reel/ui/"
    private let name: String
    private let builder: ObjectRef<OpaquePointer>

    init(_ name: String) {
        self.name = name
        builder = ObjectRef(taking: gtk_builder_new_from_resource(Self.resourcePath + name)!)
    }

    /// The object with this id; a missing one is a mistake in the file, found by any test.
    func object<T: GObjectPointer>(_ id: String, as type: T.Type = Widget.self) -> T {
        guard let object = gtk_builder_get_object(builder.pointer, id) else {
            fatalError("\(name) has no object with the id \(id)")
        }
        return gcast(object, T.self)
    }

    /// Registers the GResource file that holds the `.ui` files (BuildInfo.resourceFile). Without
    /// it there is no window to show: says what is missing, and exits.
    static func registerResources() {
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_load(BuildInfo.resourceFile, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? ""
            FileHandle.standardError.write(Data("reel: cannot read Reel's interface definitions: \(reason)\n".utf8))
            exit(1)
        }
        g_resources_register(resource)
        g_resource_unref(resource)
    }
}
