"""``python -m grognard`` and the ``grognard`` script: the command line.

numpy's OpenBLAS starts a thread per core when it is loaded. A Ctrl-C is sent to the whole process, and the
kernel may hand it to any of its threads; Python 3.11 hears a signal caught on another thread than the main one
only at the main thread's next bytecode. So a Ctrl-C handed to that thread went unheard while the program waited
for a line (it went on when the line came, or ended as if the input had ended, exit 0). Our arrays are small:
one BLAS thread costs nothing, and the program then has no thread but the main one.
"""

import os


def main() -> None:
    """Run the command line with OpenBLAS on the main thread (a value the person set is kept)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is first imported, by grognard.cli
    from grognard.cli import entry

    entry()


if __name__ == "__main__":
    main()
