import torch
from torch.autograd import Function

import my_lib


class MyAddFunction(Function):
    @staticmethod
    def forward(ctx, input1, input2):
        output = input1.new_empty(0)
        my_lib.my_lib_add_forward(input1, input2, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        grad_input = grad_output.new_empty(0)
        my_lib.my_lib_add_backward(grad_output, grad_input)
        return grad_input, grad_input


def my_add(a, b):
    return MyAddFunction.apply(a, b)
