// Placeholder: the benchmark harness is being written.
print("gstplay-bench: not written yet")
