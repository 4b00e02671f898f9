import KeyboardLink

print("kblink")
