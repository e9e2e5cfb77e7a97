print("bird-sandbox: not yet built")
