import torch


def my_lib_add_forward(input1, input2, output):
    output.resize_as_(input1)
    torch.add(input1, input2, out=output)
    return 1


def my_lib_add_backward(grad_output, grad_input):
    grad_input.resize_as_(grad_output)
    grad_input.fill_(1)
    return 1
