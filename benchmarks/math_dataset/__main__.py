"""``python -m benchmarks.math_dataset``: print the default dataset's composition."""

from benchmarks.math_dataset.summary import main

main()
