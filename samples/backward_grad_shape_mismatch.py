"""An autograd error with no dedicated rule yet: backward(gradient=...) of the wrong shape.

gradscope still names what it knows: the failing backward call and the line that built the
tensor it was called on.
"""
import torch

w = torch.randn(2, requires_grad=True)
scores = w * 3
scores.backward(torch.ones(3))
