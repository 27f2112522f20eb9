import math

import torch
import torch.nn as nn

from architectures import ConvNet, softmax_mse_loss

NO_LABEL = -1
args = {"lr": 0.05, "ema_decay": 0.99, "consistency": 10.0, "rampup": 5, "steps": 8, "batch": 16}


def create_model(ema=False):
    model = ConvNet(num_classes=5)
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


def update_ema_variables(model, ema_model, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)
    for ema_buf, buf in zip(ema_model.buffers(), model.buffers()):
        ema_buf.copy_(buf)


def sigmoid_rampup(current, rampup_length):
    current = min(max(current, 0.0), rampup_length)
    phase = 1.0 - current / rampup_length
    return float(math.exp(-5.0 * phase * phase))


def make_batch(step):
    g = torch.Generator().manual_seed(100 + step)
    x = torch.randn(args["batch"], 3, 12, 12, generator=g)
    target = torch.randint(0, 5, (args["batch"],), generator=g)
    target[args["batch"] // 2:] = NO_LABEL
    return (x, x.clone()), target


def train(model, ema_model, optimizer):
    class_criterion = nn.CrossEntropyLoss(reduction="sum", ignore_index=NO_LABEL)
    model.train()
    ema_model.train()
    for global_step in range(args["steps"]):
        (input, ema_input), target = make_batch(global_step)
        minibatch_size = len(target)
        labeled_minibatch_size = target.ne(NO_LABEL).sum().item()

        ema_logit = ema_model(ema_input)
        model_out = model(input)
        ema_logit = ema_logit.detach()

        class_loss = class_criterion(model_out, target) / minibatch_size
        weight = args["consistency"] * sigmoid_rampup(global_step, args["rampup"])
        consistency_loss = weight * softmax_mse_loss(model_out, ema_logit) / minibatch_size
        loss = class_loss + consistency_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        update_ema_variables(model, ema_model, args["ema_decay"], global_step)
        print(f"step {global_step} labeled {labeled_minibatch_size} class {class_loss.item():.4f} "
              f"cons {consistency_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(7)
    model = create_model()
    ema_model = create_model(ema=True)
    ema_model.load_state_dict(model.state_dict())
    optimizer = torch.optim.SGD(model.parameters(), args["lr"], momentum=0.9, nesterov=True)
    train(model, ema_model, optimizer)
