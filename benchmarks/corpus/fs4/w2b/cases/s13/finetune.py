import torch


def freeze_encoder(model, frzn_ffn_layers=0):
    model.message_passing.apply(lambda module: module.requires_grad_(False))
    model.bn.apply(lambda module: module.requires_grad_(False))
    for idx in range(frzn_ffn_layers):
        model.predictor.ffn[3 * idx + 1].requires_grad_(False)


def trainable_parameters(model):
    return [p for p in model.parameters() if p.requires_grad]
