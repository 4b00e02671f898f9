import KeyboardLink
print("kblink")
