import CNcurses
print("bird-inspect: not yet built", bird_A_BOLD())
