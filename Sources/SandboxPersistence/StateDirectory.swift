import Glibc
import SwiftOverlayShims

/// The start-up checks of `--state-dir`.
enum StateDirectory {
    /// Makes the folder if it is missing, locks it, and opens its journal with `open` (given the
    /// journal's path), then makes sure the disk takes a write. On failure, what it made is
    /// removed, and a system call's failure is a `StateDirectoryError` (an error about the
    /// journal's records, such as one that cannot be replayed, is passed on as it is). Returns
    /// the lock's descriptor too.
    static func open(_ directory: String, files: JournalFiles,
                     _ open: (_ path: String) throws -> (Journal, Journal.Recovery)) throws -> (Journal, Journal.Recovery, Int32) {
        let path = "\(directory)/journal.log"
        var made = (folder: false, file: false)
        var lock: Int32 = -1
        do {
            made.folder = try makeFolder(directory, files: files)
            lock = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard lock >= 0 else { throw JournalError.system("open", errno) }
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
                guard errno == EWOULDBLOCK else { throw JournalError.system("lock", errno) }
                throw StateDirectoryError(directory: directory,
                                          cause: "another sandbox is using it (stop it, or start this one on another folder)")
            }
            made.file = access(path, F_OK) != 0
            let (journal, recovery) = try open(path)
            try journal.probe()
            return (journal, recovery, lock)
        } catch {
            if made.file { unlink(path) }
            if made.folder { rmdir(directory) }
            if lock >= 0 { close(lock) }
            if case JournalError.system(let what, let code) = error {
                throw StateDirectoryError(directory: directory, cause: JournalError.system(what, code).description)
            }
            throw error
        }
    }

    /// Makes the folder, or checks that it is one; true when it made it.
    private static func makeFolder(_ path: String, files: JournalFiles) throws -> Bool {
        if files.makeFolder(path) == 0 { return true }
        let code = errno
        var info = stat()
        guard code == EEXIST else { throw JournalError.system("cannot be made", code) }
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw StateDirectoryError(directory: path, cause: "it is a file, not a folder")
        }
        return false
    }
}
