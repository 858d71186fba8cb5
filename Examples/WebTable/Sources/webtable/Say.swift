import Foundation

/// Prints a line at once, even when standard output is a file or a pipe, where it would
/// otherwise wait in a buffer: whoever started the server reads its address from this output.
func say(_ line: String) {
    print(line)
    fflush(nil)
}
