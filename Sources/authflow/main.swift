print("authflow")
