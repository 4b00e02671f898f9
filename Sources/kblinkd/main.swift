import KeyboardLink

print("kblinkd")
