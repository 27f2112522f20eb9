from functools import partial


def _clip_grad_value(grad, clip_value):
    grad.clamp_(min=-clip_value, max=clip_value)


def register_grad_clipping(model, clip_value):
    handles = []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        hook = partial(_clip_grad_value, clip_value=clip_value)
        handles.append(param.register_post_accumulate_grad_hook(hook))
    return handles
