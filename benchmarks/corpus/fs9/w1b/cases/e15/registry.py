TARGET_LAYERS = {
    "resnet18": "layer4.1.bn2",
    "resnet50": "layer4.2.bn3",
    "vgg11": "features.18",
    "mobilenet_v2": "features.18",
}


def get_target_layer(model, arch):
    module = model
    for name in TARGET_LAYERS[arch].split("."):
        module = module[int(name)] if name.isdigit() else getattr(module, name)
    return module
