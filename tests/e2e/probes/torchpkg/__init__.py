import torch  # imported while gradscope resolves `-m torchpkg.train`, before the program runs

SCALE = torch.tensor(2.0)
