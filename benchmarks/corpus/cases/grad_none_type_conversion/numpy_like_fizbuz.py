import torch

input_size = 10
epochs = 3
batches = 4
lr = 0.01
hidden_size = 32
output_size = 4

dtype = torch.DoubleTensor


def binary_encoder(n, width=input_size):
    return [(n >> i) & 1 for i in range(width)]


def fizzbuzz_label(n):
    if n % 15 == 0:
        return 3
    if n % 5 == 0:
        return 2
    if n % 3 == 0:
        return 1
    return 0


numbers = list(range(101, 101 + 64))
x = torch.tensor([binary_encoder(n) for n in numbers]).type(dtype)
y = torch.nn.functional.one_hot(torch.tensor([fizzbuzz_label(n) for n in numbers]), 4).type(dtype)

w1 = torch.randn(input_size, hidden_size, requires_grad=True).type(dtype)
w2 = torch.randn(hidden_size, output_size, requires_grad=True).type(dtype)
b1 = torch.zeros(1, hidden_size, requires_grad=True).type(dtype)
b2 = torch.zeros(1, output_size, requires_grad=True).type(dtype)

for epoch in range(epochs):
    for batch in range(batches):
        start = batch * 16
        x_ = x[start:start + 16]
        y_ = y[start:start + 16]
        a2 = x_.matmul(w1)
        a2 = a2.add(b1)
        h2 = a2.sigmoid()
        a3 = h2.matmul(w2)
        a3 = a3.add(b2)
        hyp = a3.sigmoid()
        error = hyp - y_
        loss = error.pow(2).sum()
        loss.backward()

        with torch.no_grad():
            w1 -= lr * w1.grad
            w2 -= lr * w2.grad
            b1 -= lr * b1.grad
            b2 -= lr * b2.grad
            w1.grad.zero_()
            w2.grad.zero_()
            b1.grad.zero_()
            b2.grad.zero_()
    print(epoch, loss.item())
