import torch
import torch.nn as nn
import torch.optim as optim

from nets import EfficientDetBackbone
from utils_fit import fit_one_epoch

torch.manual_seed(0)

num_classes = 3
input_shape = [32, 32]
Init_Epoch = 0
UnFreeze_Epoch = 2
batch_size = 4
Init_lr = 3e-3
momentum = 0.9
weight_decay = 5e-4
optimizer_type = "adam"


def make_batches(n_batches):
    n_anchors = 8 * 8 + 4 * 4 + 2 * 2
    batches = []
    for _ in range(n_batches):
        images = torch.randn(batch_size, 3, *input_shape)
        reg = torch.randn(batch_size, n_anchors, 4) * 0.1
        cls = (torch.rand(batch_size, n_anchors, num_classes) > 0.9).float()
        batches.append((images, reg, cls))
    return batches


if __name__ == "__main__":
    model = EfficientDetBackbone(num_classes)
    model_train = model.train()

    pg0, pg1, pg2 = [], [], []
    for k, v in model.named_modules():
        if hasattr(v, "bias") and isinstance(v.bias, nn.Parameter):
            pg2.append(v.bias)
        if isinstance(v, nn.BatchNorm2d) or "bn" in k:
            pg0.append(v.weight)
        elif hasattr(v, "weight") and isinstance(v.weight, nn.Parameter):
            pg1.append(v.weight)
    optimizer = {
        "adam": optim.Adam(pg0, Init_lr, betas=(momentum, 0.999)),
        "sgd": optim.SGD(pg0, Init_lr, momentum=momentum, nesterov=True),
    }[optimizer_type]
    optimizer.add_param_group({"params": pg1, "weight_decay": weight_decay})
    optimizer.add_param_group({"params": pg2})
    lr_scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.94)

    gen = make_batches(3)
    epoch_step = len(gen)
    for epoch in range(Init_Epoch, UnFreeze_Epoch):
        fit_one_epoch(model_train, optimizer, gen, epoch, epoch_step)
        lr_scheduler.step()
