def deactivate_requires_grad(module):
    for p in module.parameters():
        p.requires_grad = False


def freeze_backbone(model):
    deactivate_requires_grad(model.backbone)
    model.backbone.eval()
    return model


def trainable_parameters(model):
    return [p for p in model.parameters() if p.requires_grad]
