import KeyboardLink
print("kblinkd")
