"""Every sample: what gradscope diagnoses (the rule and the exact lines, recorded in-process by
tests/harness.py, as `gradscope run` records them), and one end-to-end run in a subprocess next
to plain `python` (same exit status, output and traceback; the report names the rule)."""

from __future__ import annotations

import json

import pytest

from conftest import SAMPLES, run_gradscope, run_python_once
from harness import record

# sample -> (rule, [(file relative to samples/, line, role), ...] in report order)
EXPECTED = {
    "gan_fake_reused_across_generator_steps.py": ("inplace-modified-saved-tensor", [("gan_fake_reused_across_generator_steps.py", 23, "fix"), ("gan_fake_reused_across_generator_steps.py", 21, "fix"), ("gan_fake_reused_across_generator_steps.py", 16, "saved"),
        ("gan_fake_reused_across_generator_steps.py", 23, "modified"), ("gan_fake_reused_across_generator_steps.py", 16, "built"), ("gan_fake_reused_across_generator_steps.py", 22, "backward")]),
    "grad_switched_off_by_helper.py": ("backward-without-graph", [("grad_switched_off_by_helper.py", 8, "fix"), ("grad_switched_off_by_helper.py", 14, "cut"), ("grad_switched_off_by_helper.py", 8, "no-grad-block"),
        ("grad_switched_off_by_helper.py", 20, "cut-input"), ("grad_switched_off_by_helper.py", 27, "backward")]),
    "grad_input_cut_by_config_mode.py": ("grad-input-unused", [("grad_input_cut_by_config_mode.py", 7, "fix"), ("grad_input_cut_by_config_mode.py", 15, "fix"), ("grad_input_cut_by_config_mode.py", 32, "input"), ("grad_input_cut_by_config_mode.py", 34, "backward"),
        ("grad_input_cut_by_config_mode.py", 15, "cut"), ("grad_input_cut_by_config_mode.py", 7, "setting"), ("grad_input_cut_by_config_mode.py", 24, "used"), ("grad_input_cut_by_config_mode.py", 31, "outer")]),
    "loss_made_before_loop_passed_to_helper.py": ("backward-through-freed-graph", [("loss_made_before_loop_passed_to_helper.py", 16, "fix"), ("loss_made_before_loop_passed_to_helper.py", 14, "fix"),
        ("loss_made_before_loop_passed_to_helper.py", 14, "created"), ("loss_made_before_loop_passed_to_helper.py", 9, "freed"), ("loss_made_before_loop_passed_to_helper.py", 9, "backward"), ("loss_made_before_loop_passed_to_helper.py", 15, "outer")]),
    "module_hook_registers_in_no_grad_forward.py": ("hook-on-tensor-without-grad", [("module_hook_registers_in_no_grad_forward.py", 15, "fix"), ("module_hook_registers_in_no_grad_forward.py", 12, "cut"), ("module_hook_registers_in_no_grad_forward.py", 11, "no-grad-block"),
        ("module_hook_registers_in_no_grad_forward.py", 19, "cut-input"), ("module_hook_registers_in_no_grad_forward.py", 15, "failed"), ("module_hook_registers_in_no_grad_forward.py", 10, "registered")]),
    "function_gradient_flattened.py": ("custom-function-bad-gradient", [("function_gradient_flattened.py", 17, "fix"),
        ("function_gradient_flattened.py", 19, "returned"), ("function_gradient_flattened.py", 28, "created"),
        ("function_gradient_flattened.py", 9, "defined"), ("function_gradient_flattened.py", 34, "backward")]),
    "stateful_flag_skips_reset.py": ("backward-through-freed-graph", [("stateful_flag_skips_reset.py", 6, "fix"),
        ("stateful_flag_skips_reset.py", 18, "fix"), ("stateful_flag_skips_reset.py", 19, "reset"),
        ("stateful_flag_skips_reset.py", 23, "kept"), ("stateful_flag_skips_reset.py", 22, "created"),
        ("stateful_flag_skips_reset.py", 22, "used"), ("stateful_flag_skips_reset.py", 31, "carried"),
        ("stateful_flag_skips_reset.py", 34, "freed"), ("stateful_flag_skips_reset.py", 34, "backward"),
        ("stateful_flag_skips_reset.py", 30, "outer")]),
    "checkpoint_kwargs_left_none.py": ("backward-without-graph", [("checkpoint_kwargs_left_none.py", 7, "fix"),
        ("checkpoint_kwargs_left_none.py", 21, "fix"), ("checkpoint_kwargs_left_none.py", 25, "cut"),
        ("checkpoint_kwargs_left_none.py", 31, "no-grad-block"), ("checkpoint_kwargs_left_none.py", 15, "cut-input"),
        ("checkpoint_kwargs_left_none.py", 40, "frozen"), ("checkpoint_kwargs_left_none.py", 42, "used"),
        ("checkpoint_kwargs_left_none.py", 40, "frozen"), ("checkpoint_kwargs_left_none.py", 45, "backward")]),
    "loss_reduction_none_criterion.py": ("backward-non-scalar", [("loss_reduction_none_criterion.py", 7, "fix"),
        ("loss_reduction_none_criterion.py", 19, "created"), ("loss_reduction_none_criterion.py", 21, "backward"),
        ("loss_reduction_none_criterion.py", 9, "built")]),
    "weights_merged_between_forward_and_backward.py": ("inplace-modified-saved-tensor", [
        ("weights_merged_between_forward_and_backward.py", 25, "fix"),
        ("weights_merged_between_forward_and_backward.py", 24, "saved"),
        ("weights_merged_between_forward_and_backward.py", 20, "modified"),
        ("weights_merged_between_forward_and_backward.py", 36, "backward")]),
    "mutual_learning_peer_not_detached.py": ("backward-through-freed-graph", [
        ("mutual_learning_peer_not_detached.py", 10, "fix"), ("mutual_learning_peer_not_detached.py", 19, "created"),
        ("mutual_learning_peer_not_detached.py", 9, "used"), ("mutual_learning_peer_not_detached.py", 10, "used"),
        ("mutual_learning_peer_not_detached.py", 21, "linked"),
        ("mutual_learning_peer_not_detached.py", 23, "freed"),
        ("mutual_learning_peer_not_detached.py", 23, "backward"),
        ("mutual_learning_peer_not_detached.py", 20, "outer")]),
    "state_reset_skipped_by_schedule.py": ("backward-through-freed-graph", [("state_reset_skipped_by_schedule.py", 7, "fix"), ("state_reset_skipped_by_schedule.py", 34, "fix"), ("state_reset_skipped_by_schedule.py", 35, "reset"), ("state_reset_skipped_by_schedule.py", 22, "kept"), ("state_reset_skipped_by_schedule.py", 22, "created"), ("state_reset_skipped_by_schedule.py", 22, "used"), ("state_reset_skipped_by_schedule.py", 30, "carried"), ("state_reset_skipped_by_schedule.py", 31, "freed"), ("state_reset_skipped_by_schedule.py", 31, "backward"), ("state_reset_skipped_by_schedule.py", 29, "outer")]),
    "reentrant_checkpoint_after_detached_stem.py": ("backward-without-graph", [
        ("reentrant_checkpoint_after_detached_stem.py", 8, "fix"),
        ("reentrant_checkpoint_after_detached_stem.py", 22, "fix"),
        ("reentrant_checkpoint_after_detached_stem.py", 24, "cut"),
        ("reentrant_checkpoint_after_detached_stem.py", 15, "cut-input"),
        ("reentrant_checkpoint_after_detached_stem.py", 22, "cut"),
        ("reentrant_checkpoint_after_detached_stem.py", 30, "backward"),
        ("reentrant_checkpoint_after_detached_stem.py", 8, "setting")]),
    "inplace_add_into_renamed_features.py": ("inplace-modified-saved-tensor", [
        ("inplace_add_into_renamed_features.py", 18, "fix"), ("inplace_add_into_renamed_features.py", 17, "fix"),
        ("inplace_add_into_renamed_features.py", 17, "saved"),
        ("inplace_add_into_renamed_features.py", 18, "modified"),
        ("inplace_add_into_renamed_features.py", 16, "created"),
        ("inplace_add_into_renamed_features.py", 15, "created"),
        ("inplace_add_into_renamed_features.py", 23, "backward")]),
    "draft_inputs_overwritten_between_steps.py": ("inplace-modified-saved-tensor", [
        ("draft_inputs_overwritten_between_steps.py", 21, "fix"),
        ("draft_inputs_overwritten_between_steps.py", 22, "saved"),
        ("draft_inputs_overwritten_between_steps.py", 16, "created"),
        ("draft_inputs_overwritten_between_steps.py", 21, "modified"),
        ("draft_inputs_overwritten_between_steps.py", 24, "backward")]),
    "aux_head_parameters_never_used.py": ("grad-input-unused", [
        ("aux_head_parameters_never_used.py", 30, "fix"), ("aux_head_parameters_never_used.py", 13, "input"),
        ("aux_head_parameters_never_used.py", 23, "backward"), ("aux_head_parameters_never_used.py", 13, "defined"),
        ("aux_head_parameters_never_used.py", 28, "mode")]),
    "custom_checkpoint_extra_gradient.py": ("custom-function-bad-gradient", [
        ("custom_checkpoint_extra_gradient.py", 23, "fix"), ("custom_checkpoint_extra_gradient.py", 23, "returned"),
        ("custom_checkpoint_extra_gradient.py", 27, "created"),
        ("custom_checkpoint_extra_gradient.py", 11, "defined"),
        ("custom_checkpoint_extra_gradient.py", 45, "backward"),
        ("custom_checkpoint_extra_gradient.py", 6, "setting"), ("custom_checkpoint_extra_gradient.py", 43, "used")]),
    "no_grad_sampler_view_written.py": ("no-grad-view-inplace", [
        ("no_grad_sampler_view_written.py", 14, "fix"), ("no_grad_sampler_view_written.py", 25, "failed"),
        ("no_grad_sampler_view_written.py", 32, "outer"), ("no_grad_sampler_view_written.py", 11, "no-grad-block"),
        ("no_grad_sampler_view_written.py", 15, "returned")]),
    "function_saved_input_changed_later.py": ("inplace-modified-saved-tensor", [
        ("function_saved_input_changed_later.py", 27, "fix"), ("function_saved_input_changed_later.py", 10, "fix"),
        ("function_saved_input_changed_later.py", 25, "created"),
        ("function_saved_input_changed_later.py", 26, "saved"),
        ("function_saved_input_changed_later.py", 27, "modified"),
        ("function_saved_input_changed_later.py", 10, "saved"),
        ("function_saved_input_changed_later.py", 33, "backward")]),
    "checkpointing_switched_on_then_autograd_grad.py": ("grad-input-unused", [
        ("checkpointing_switched_on_then_autograd_grad.py", 21, "fix"),
        ("checkpointing_switched_on_then_autograd_grad.py", 13, "input"),
        ("checkpointing_switched_on_then_autograd_grad.py", 35, "backward"),
        ("checkpointing_switched_on_then_autograd_grad.py", 21, "checkpoint"),
        ("checkpointing_switched_on_then_autograd_grad.py", 28, "mode"),
        ("checkpointing_switched_on_then_autograd_grad.py", 7, "setting")]),
    "inplace_dropout_after_registry_activation.py": ("inplace-modified-saved-tensor", [
        ("inplace_dropout_after_registry_activation.py", 20, "fix"),
        ("inplace_dropout_after_registry_activation.py", 24, "saved"),
        ("inplace_dropout_after_registry_activation.py", 18, "created"),
        ("inplace_dropout_after_registry_activation.py", 24, "modified"),
        ("inplace_dropout_after_registry_activation.py", 29, "backward"),
        ("inplace_dropout_after_registry_activation.py", 8, "setting")]),
    "backward_grad_shape_mismatch.py": ("backward-gradient-mismatch", [
        ("backward_grad_shape_mismatch.py", 10, "fix"), ("backward_grad_shape_mismatch.py", 9, "created"),
        ("backward_grad_shape_mismatch.py", 10, "backward")]),
    "chunk_part_scaled_inplace.py": ("multi-output-view-inplace", [
        ("chunk_part_scaled_inplace.py", 19, "fix"), ("chunk_part_scaled_inplace.py", 18, "created"),
        ("chunk_part_scaled_inplace.py", 15, "view"), ("chunk_part_scaled_inplace.py", 19, "failed")]),
    "embeddings_built_frozen_by_config.py": ("backward-without-graph", [
        ("embeddings_built_frozen_by_config.py", 6, "fix"), ("embeddings_built_frozen_by_config.py", 13, "defined"),
        ("embeddings_built_frozen_by_config.py", 14, "defined"), ("embeddings_built_frozen_by_config.py", 25, "backward"),
        ("embeddings_built_frozen_by_config.py", 22, "outer")]),
    "hook_after_loader_freezes.py": ("hook-on-tensor-without-grad", [("hook_after_loader_freezes.py", 10, "fix"),
        ("hook_after_loader_freezes.py", 10, "frozen"), ("hook_after_loader_freezes.py", 17, "failed")]),
    "hook_on_frozen_parameter.py": ("hook-on-tensor-without-grad", [
        ("hook_on_frozen_parameter.py", 13, "fix"), ("hook_on_frozen_parameter.py", 19, "frozen"),
        ("hook_on_frozen_parameter.py", 18, "defined"), ("hook_on_frozen_parameter.py", 14, "failed")]),
    "freeze_prefixes_match_nothing.py": ("backward-without-graph", [
        ("freeze_prefixes_match_nothing.py", 7, "fix"), ("freeze_prefixes_match_nothing.py", 12, "fix"),
        ("freeze_prefixes_match_nothing.py", 12, "frozen"), ("freeze_prefixes_match_nothing.py", 22, "backward")]),
    "two_losses_one_graph_in_step.py": ("backward-through-freed-graph", [
        ("two_losses_one_graph_in_step.py", 27, "fix"), ("two_losses_one_graph_in_step.py", 16, "created"),
        ("two_losses_one_graph_in_step.py", 29, "used"), ("two_losses_one_graph_in_step.py", 17, "linked"),
        ("two_losses_one_graph_in_step.py", 27, "freed"), ("two_losses_one_graph_in_step.py", 30, "backward")]),
    "inplace_switched_after_build.py": ("inplace-modified-saved-tensor", [
        ("inplace_switched_after_build.py", 15, "fix"), ("inplace_switched_after_build.py", 18, "saved"),
        ("inplace_switched_after_build.py", 18, "modified"), ("inplace_switched_after_build.py", 22, "backward")]),
    "vjp_batchnorm_in_train_mode.py": ("func-transform-mutates-capture", [
        ("vjp_batchnorm_in_train_mode.py", 11, "fix"), ("vjp_batchnorm_in_train_mode.py", 11, "built"),
        ("vjp_batchnorm_in_train_mode.py", 23, "failed"), ("vjp_batchnorm_in_train_mode.py", 20, "built"),
        ("vjp_batchnorm_in_train_mode.py", 34, "mode"), ("vjp_batchnorm_in_train_mode.py", 9, "setting"),
        ("vjp_batchnorm_in_train_mode.py", 33, "used")]),
    "backward_hook_on_named_layer.py": ("custom-function-view-inplace", [
        ("backward_hook_on_named_layer.py", 17, "fix"), ("backward_hook_on_named_layer.py", 9, "fix"),
        ("backward_hook_on_named_layer.py", 17, "hook"), ("backward_hook_on_named_layer.py", 30, "failed"),
        ("backward_hook_on_named_layer.py", 29, "used")]),
    "backward_non_scalar.py": ("backward-non-scalar", [("backward_non_scalar.py", 8, "fix"),
        ("backward_non_scalar.py", 8, "created"), ("backward_non_scalar.py", 9, "backward")]),
    "backward_twice_same_loss.py": ("backward-through-freed-graph", [("backward_twice_same_loss.py", 9, "fix"),
        ("backward_twice_same_loss.py", 6, "created"), ("backward_twice_same_loss.py", 7, "freed"),
        ("backward_twice_same_loss.py", 9, "backward")]),
    "backward_twice_shared.py": ("backward-through-freed-graph", [("backward_twice_shared.py", 7, "fix"),
        ("backward_twice_shared.py", 5, "created"), ("backward_twice_shared.py", 6, "used"),
        ("backward_twice_shared.py", 7, "freed"), ("backward_twice_shared.py", 9, "backward")]),
    "carried_state_detach_rebinds.py": ("backward-through-freed-graph", [
        ("carried_state_detach_rebinds.py", 14, "fix"), ("carried_state_detach_rebinds.py", 26, "fix"),
        ("carried_state_detach_rebinds.py", 26, "created"), ("carried_state_detach_rebinds.py", 26, "used"),
        ("carried_state_detach_rebinds.py", 29, "freed"), ("carried_state_detach_rebinds.py", 29, "backward"),
        ("carried_state_detach_rebinds.py", 23, "outer"), ("carried_state_detach_rebinds.py", 31, "outer")]),
    "parametrize_cached_accumulation.py": ("backward-through-freed-graph", [
        ("parametrize_cached_accumulation.py", 23, "fix"), ("parametrize_cached_accumulation.py", 15, "created"),
        ("parametrize_cached_accumulation.py", 15, "used"), ("parametrize_cached_accumulation.py", 25, "carried"),
        ("parametrize_cached_accumulation.py", 26, "freed"), ("parametrize_cached_accumulation.py", 26, "backward"),
        ("parametrize_cached_accumulation.py", 24, "outer")]),
    "critic_loop_penalty_not_detached.py": ("backward-through-freed-graph", [
        ("critic_loop_penalty_not_detached.py", 10, "fix"), ("critic_loop_penalty_not_detached.py", 23, "created"),
        ("critic_loop_penalty_not_detached.py", 10, "used"), ("critic_loop_penalty_not_detached.py", 26, "linked"),
        ("critic_loop_penalty_not_detached.py", 27, "freed"),
        ("critic_loop_penalty_not_detached.py", 27, "backward"), ("critic_loop_penalty_not_detached.py", 24, "outer")]),
    "inference_mode_copied_student.py": ("inference-tensor-in-autograd", [
        ("inference_mode_copied_student.py", 10, "fix"), ("inference_mode_copied_student.py", 14, "inference"),
        ("inference_mode_copied_student.py", 10, "no-grad-block"), ("inference_mode_copied_student.py", 23, "failed"),
        ("inference_mode_copied_student.py", 20, "outer")]),
    "bank_filled_by_hook.py": ("backward-through-freed-graph", [
        ("bank_filled_by_hook.py", 24, "created"), ("bank_filled_by_hook.py", 15, "used"),
        ("bank_filled_by_hook.py", 24, "linked"), ("bank_filled_by_hook.py", 25, "freed"),
        ("bank_filled_by_hook.py", 25, "backward"), ("bank_filled_by_hook.py", 23, "outer")]),
    "checkpoint_recompute_grows_cache.py": ("checkpoint-recompute-mismatch", [
        ("checkpoint_recompute_grows_cache.py", 25, "backward"), ("checkpoint_recompute_grows_cache.py", 24, "checkpoint")]),
    "checkpoint_with_cache_on.py": ("checkpoint-recompute-mismatch", [("checkpoint_with_cache_on.py", 14, "fix"),
        ("checkpoint_with_cache_on.py", 44, "backward"), ("checkpoint_with_cache_on.py", 38, "checkpoint")]),
    "checkpoint_reentrant_grad.py": ("checkpoint-reentrant-grad", [("checkpoint_reentrant_grad.py", 9, "fix"),
        ("checkpoint_reentrant_grad.py", 10, "backward"), ("checkpoint_reentrant_grad.py", 9, "checkpoint")]),
    "closure_under_no_grad_step.py": ("backward-without-graph", [("closure_under_no_grad_step.py", 13, "fix"),
        ("closure_under_no_grad_step.py", 29, "cut"), ("closure_under_no_grad_step.py", 11, "no-grad-block"),
        ("closure_under_no_grad_step.py", 22, "cut-input"), ("closure_under_no_grad_step.py", 30, "backward")]),
    "attack_picked_by_flag.py": ("requires-grad-on-non-leaf", [
        ("attack_picked_by_flag.py", 31, "fix"), ("attack_picked_by_flag.py", 31, "non-leaf"),
        ("attack_picked_by_flag.py", 28, "failed"), ("attack_picked_by_flag.py", 38, "setting")]),
    "custom_function_picked_by_config.py": ("custom-function-bad-gradient", [
        ("custom_function_picked_by_config.py", 18, "fix"), ("custom_function_picked_by_config.py", 18, "returned"),
        ("custom_function_picked_by_config.py", 39, "created"), ("custom_function_picked_by_config.py", 11, "defined"),
        ("custom_function_picked_by_config.py", 45, "backward"), ("custom_function_picked_by_config.py", 6, "setting"),
        ("custom_function_picked_by_config.py", 43, "used")]),
    "custom_function_returns_view.py": ("custom-function-view-inplace", [
        ("custom_function_returns_view.py", 8, "fix"), ("custom_function_returns_view.py", 17, "fix"),
        ("custom_function_returns_view.py", 8, "returned"), ("custom_function_returns_view.py", 16, "view"),
        ("custom_function_returns_view.py", 17, "failed")]),
    "custom_function_wrong_grad_count.py": ("custom-function-bad-gradient", [
        ("custom_function_wrong_grad_count.py", 12, "fix"), ("custom_function_wrong_grad_count.py", 12, "returned"),
        ("custom_function_wrong_grad_count.py", 17, "created"), ("custom_function_wrong_grad_count.py", 7, "defined"),
        ("custom_function_wrong_grad_count.py", 18, "backward")]),
    "derivative_not_implemented.py": ("derivative-not-implemented", [("derivative_not_implemented.py", 6, "fix"),
        ("derivative_not_implemented.py", 6, "created"), ("derivative_not_implemented.py", 7, "backward")]),
    "detach_view_inplace.py": ("detach-view-inplace", [("detach_view_inplace.py", 8, "fix"),
        ("detach_view_inplace.py", 8, "view"), ("detach_view_inplace.py", 8, "failed")]),
    "embedding_copyslices.py": ("inplace-modified-saved-tensor", [("embedding_copyslices.py", 13, "fix"),
        ("embedding_copyslices.py", 16, "fix"), ("embedding_copyslices.py", 13, "created"),
        ("embedding_copyslices.py", 14, "saved"), ("embedding_copyslices.py", 16, "modified"),
        ("embedding_copyslices.py", 18, "backward")]),
    "init_bias_through_view.py": ("inplace-on-leaf", [("init_bias_through_view.py", 17, "fix"),
        ("init_bias_through_view.py", 18, "fix"), ("init_bias_through_view.py", 13, "created"),
        ("init_bias_through_view.py", 17, "view"), ("init_bias_through_view.py", 18, "modified"),
        ("init_bias_through_view.py", 19, "modified")]),
    "embedding_padding_row.py": ("inplace-on-leaf", [("embedding_padding_row.py", 6, "fix"),
        ("embedding_padding_row.py", 5, "created"), ("embedding_padding_row.py", 6, "view"),
        ("embedding_padding_row.py", 6, "modified")]),
    "flag_on_cloned_weights.py": ("requires-grad-on-non-leaf", [
        ("flag_on_cloned_weights.py", 22, "fix"), ("flag_on_cloned_weights.py", 10, "non-leaf"),
        ("flag_on_cloned_weights.py", 24, "failed"), ("flag_on_cloned_weights.py", 21, "outer")]),
    "forward_outside_loop.py": ("backward-through-freed-graph", [
        ("forward_outside_loop.py", 11, "fix"), ("forward_outside_loop.py", 11, "created"),
        ("forward_outside_loop.py", 15, "used"), ("forward_outside_loop.py", 16, "freed"),
        ("forward_outside_loop.py", 16, "backward"), ("forward_outside_loop.py", 13, "outer")]),
    "freeze_helper_given_whole_model.py": ("backward-without-graph", [
        ("freeze_helper_given_whole_model.py", 26, "fix"), ("freeze_helper_given_whole_model.py", 11, "fix"),
        ("freeze_helper_given_whole_model.py", 11, "frozen"), ("freeze_helper_given_whole_model.py", 30, "backward")]),
    "augmented_input_requires_grad.py": ("inplace-on-leaf", [
        ("augmented_input_requires_grad.py", 16, "fix"), ("augmented_input_requires_grad.py", 9, "fix"),
        ("augmented_input_requires_grad.py", 16, "created"), ("augmented_input_requires_grad.py", 9, "modified")]),
    "loss_term_reduced_per_sample.py": ("backward-non-scalar", [
        ("loss_term_reduced_per_sample.py", 15, "fix"), ("loss_term_reduced_per_sample.py", 21, "created"),
        ("loss_term_reduced_per_sample.py", 29, "backward"), ("loss_term_reduced_per_sample.py", 15, "term"),
        ("loss_term_reduced_per_sample.py", 28, "outer")]),
    "save_for_backward_tuple_from_helper.py": ("custom-function-misuse", [
        ("save_for_backward_tuple_from_helper.py", 8, "fix"),
        ("save_for_backward_tuple_from_helper.py", 29, "failed"),
        ("save_for_backward_tuple_from_helper.py", 15, "raises"),
        ("save_for_backward_tuple_from_helper.py", 14, "created")]),
    "module_hook_returns_tensor.py": ("hook-bad-return", [
        ("module_hook_returns_tensor.py", 9, "fix"), ("module_hook_returns_tensor.py", 19, "backward"),
        ("module_hook_returns_tensor.py", 11, "registered"), ("module_hook_returns_tensor.py", 17, "outer")]),
    "custom_function_backward_raises.py": ("backward-error", [
        ("custom_function_backward_raises.py", 23, "created"), ("custom_function_backward_raises.py", 15, "raises"),
        ("custom_function_backward_raises.py", 9, "saved"), ("custom_function_backward_raises.py", 23, "backward")]),
    "frozen_model_backward.py": ("backward-without-graph", [
        ("frozen_model_backward.py", 7, "fix"), ("frozen_model_backward.py", 8, "fix"),
        ("frozen_model_backward.py", 8, "frozen"), ("frozen_model_backward.py", 11, "backward")]),
    "gan_discriminator_step_not_detached.py": ("backward-through-freed-graph", [
        ("gan_discriminator_step_not_detached.py", 23, "fix"),
        ("gan_discriminator_step_not_detached.py", 14, "created"),
        ("gan_discriminator_step_not_detached.py", 27, "used"),
        ("gan_discriminator_step_not_detached.py", 23, "linked"),
        ("gan_discriminator_step_not_detached.py", 25, "freed"),
        ("gan_discriminator_step_not_detached.py", 29, "backward")]),
    "gan_fake_not_detached.py": ("backward-through-freed-graph", [("gan_fake_not_detached.py", 8, "fix"),
        ("gan_fake_not_detached.py", 7, "created"), ("gan_fake_not_detached.py", 9, "used"),
        ("gan_fake_not_detached.py", 8, "freed"), ("gan_fake_not_detached.py", 9, "backward")]),
    "gan_fake_kept_on_model.py": ("backward-through-freed-graph", [("gan_fake_kept_on_model.py", 19, "fix"),
        ("gan_fake_kept_on_model.py", 16, "created"), ("gan_fake_kept_on_model.py", 23, "used"),
        ("gan_fake_kept_on_model.py", 19, "linked"), ("gan_fake_kept_on_model.py", 20, "freed"),
        ("gan_fake_kept_on_model.py", 24, "backward")]),
    "loss_made_before_loop.py": ("backward-through-freed-graph", [
        ("loss_made_before_loop.py", 10, "fix"), ("loss_made_before_loop.py", 10, "created"),
        ("loss_made_before_loop.py", 13, "freed"), ("loss_made_before_loop.py", 13, "backward"),
        ("loss_made_before_loop.py", 11, "outer")]),
    "loss_helper_called_twice.py": ("backward-through-freed-graph", [("loss_helper_called_twice.py", 19, "fix"),
        ("loss_helper_called_twice.py", 17, "created"), ("loss_helper_called_twice.py", 8, "used"),
        ("loss_helper_called_twice.py", 9, "freed"), ("loss_helper_called_twice.py", 9, "backward")]),
    "gan_step_between_backwards.py": ("inplace-modified-saved-tensor", [
        ("gan_step_between_backwards.py", 24, "fix"), ("gan_step_between_backwards.py", 26, "fix"),
        ("gan_step_between_backwards.py", 20, "saved"), ("gan_step_between_backwards.py", 24, "modified"),
        ("gan_step_between_backwards.py", 20, "built"), ("gan_step_between_backwards.py", 28, "backward")]),
    "gan_step_model_in_helper.py": ("inplace-modified-saved-tensor", [("gan_step_model_in_helper.py", 34, "fix"),
        ("gan_step_model_in_helper.py", 22, "fix"), ("gan_step_model_in_helper.py", 16, "saved"),
        ("gan_step_model_in_helper.py", 22, "built"), ("gan_step_model_in_helper.py", 34, "modified"),
        ("gan_step_model_in_helper.py", 36, "backward")]),
    "grad_input_without_grad.py": ("grad-input-without-grad", [("grad_input_without_grad.py", 7, "backward")]),
    "grad_is_none_after_rebind.py": ("grad-is-none", [("grad_is_none_after_rebind.py", 9, "fix"),
        ("grad_is_none_after_rebind.py", 9, "non-leaf"), ("grad_is_none_after_rebind.py", 9, "read"),
        ("grad_is_none_after_rebind.py", 9, "failed")]),
    "grad_unused_input.py": ("grad-input-unused", [("grad_unused_input.py", 6, "fix"),
        ("grad_unused_input.py", 5, "input"), ("grad_unused_input.py", 6, "cut"),
        ("grad_unused_input.py", 7, "backward")]),
    "hook_changes_grad_shape.py": ("hook-changed-gradient", [("hook_changes_grad_shape.py", 5, "fix"),
        ("hook_changes_grad_shape.py", 5, "hook"), ("hook_changes_grad_shape.py", 11, "registered"),
        ("hook_changes_grad_shape.py", 12, "backward")]),
    "hook_on_no_grad_activation.py": ("hook-on-tensor-without-grad", [("hook_on_no_grad_activation.py", 7, "fix"),
        ("hook_on_no_grad_activation.py", 8, "cut"), ("hook_on_no_grad_activation.py", 7, "no-grad-block"),
        ("hook_on_no_grad_activation.py", 6, "cut-input"), ("hook_on_no_grad_activation.py", 9, "failed")]),
    "inference_tensor_training.py": ("inference-tensor-in-autograd", [("inference_tensor_training.py", 7, "fix"),
        ("inference_tensor_training.py", 8, "inference"), ("inference_tensor_training.py", 7, "no-grad-block"),
        ("inference_tensor_training.py", 9, "failed")]),
    "init_weights_inplace.py": ("inplace-on-leaf", [("init_weights_inplace.py", 13, "fix"),
        ("init_weights_inplace.py", 9, "created"), ("init_weights_inplace.py", 13, "modified")]),
    "input_slot_refined_in_place.py": ("inplace-modified-saved-tensor", [
        ("input_slot_refined_in_place.py", 19, "fix"), ("input_slot_refined_in_place.py", 17, "fix"),
        ("input_slot_refined_in_place.py", 18, "saved"), ("input_slot_refined_in_place.py", 17, "created"),
        ("input_slot_refined_in_place.py", 19, "modified"), ("input_slot_refined_in_place.py", 28, "backward")]),
    "inplace_alias_assignment.py": ("inplace-modified-saved-tensor", [
        ("inplace_alias_assignment.py", 16, "fix"), ("inplace_alias_assignment.py", 18, "fix"),
        ("inplace_alias_assignment.py", 24, "created"), ("inplace_alias_assignment.py", 14, "saved"),
        ("inplace_alias_assignment.py", 18, "modified"), ("inplace_alias_assignment.py", 26, "backward")]),
    "inplace_detach_alias.py": ("inplace-modified-saved-tensor", [("inplace_detach_alias.py", 7, "fix"),
        ("inplace_detach_alias.py", 5, "saved"), ("inplace_detach_alias.py", 7, "modified"),
        ("inplace_detach_alias.py", 8, "backward")]),
    "inplace_index_assign.py": ("inplace-modified-saved-tensor", [("inplace_index_assign.py", 13, "fix"),
        ("inplace_index_assign.py", 9, "created"), ("inplace_index_assign.py", 12, "saved"),
        ("inplace_index_assign.py", 13, "modified"), ("inplace_index_assign.py", 16, "backward")]),
    "inplace_leaf_under_no_grad.py": ("inplace-modified-saved-tensor", [
        ("inplace_leaf_under_no_grad.py", 10, "fix"), ("inplace_leaf_under_no_grad.py", 7, "created"),
        ("inplace_leaf_under_no_grad.py", 8, "saved"), ("inplace_leaf_under_no_grad.py", 10, "modified"),
        ("inplace_leaf_under_no_grad.py", 14, "backward")]),
    "inplace_masked_fill.py": ("inplace-modified-saved-tensor", [("inplace_masked_fill.py", 8, "fix"),
        ("inplace_masked_fill.py", 6, "created"), ("inplace_masked_fill.py", 7, "saved"),
        ("inplace_masked_fill.py", 8, "modified"), ("inplace_masked_fill.py", 10, "backward")]),
    "inplace_plus_equals.py": ("inplace-modified-saved-tensor", [("inplace_plus_equals.py", 6, "fix"),
        ("inplace_plus_equals.py", 5, "saved"), ("inplace_plus_equals.py", 6, "modified"),
        ("inplace_plus_equals.py", 7, "backward")]),
    "kernel_cached_across_steps.py": ("backward-through-freed-graph", [
        ("kernel_cached_across_steps.py", 16, "fix"), ("kernel_cached_across_steps.py", 19, "created"),
        ("kernel_cached_across_steps.py", 25, "used"), ("kernel_cached_across_steps.py", 34, "freed"),
        ("kernel_cached_across_steps.py", 34, "backward"), ("kernel_cached_across_steps.py", 31, "outer")]),
    "second_loss_from_stale_output.py": ("backward-through-freed-graph", [("second_loss_from_stale_output.py", 16, "fix"), ("second_loss_from_stale_output.py", 12, "created"), ("second_loss_from_stale_output.py", 16, "used"), ("second_loss_from_stale_output.py", 13, "freed"), ("second_loss_from_stale_output.py", 16, "backward")]),
    "inplace_into_saved_view.py": ("inplace-modified-saved-tensor", [("inplace_into_saved_view.py", 11, "fix"),
        ("inplace_into_saved_view.py", 9, "created"), ("inplace_into_saved_view.py", 10, "saved"),
        ("inplace_into_saved_view.py", 11, "modified"), ("inplace_into_saved_view.py", 12, "backward")]),
    "inplace_mask_after_rebinding_view.py": ("inplace-modified-saved-tensor", [
        ("inplace_mask_after_rebinding_view.py", 16, "fix"), ("inplace_mask_after_rebinding_view.py", 14, "saved"),
        ("inplace_mask_after_rebinding_view.py", 16, "modified"),
        ("inplace_mask_after_rebinding_view.py", 15, "created"),
        ("inplace_mask_after_rebinding_view.py", 24, "backward")]),
    "replay_log_probs_reused.py": ("backward-through-freed-graph", [
        ("replay_log_probs_reused.py", 42, "fix"), ("replay_log_probs_reused.py", 33, "created"),
        ("replay_log_probs_reused.py", 42, "used"), ("replay_log_probs_reused.py", 48, "freed"),
        ("replay_log_probs_reused.py", 48, "backward"), ("replay_log_probs_reused.py", 55, "outer"),
        ("replay_log_probs_reused.py", 31, "origin"), ("replay_log_probs_reused.py", 57, "outer")]),
    "kv_cache_carried_across_steps.py": ("backward-through-freed-graph", [
        ("kv_cache_carried_across_steps.py", 16, "fix"), ("kv_cache_carried_across_steps.py", 18, "created"),
        ("kv_cache_carried_across_steps.py", 17, "used"), ("kv_cache_carried_across_steps.py", 30, "freed"),
        ("kv_cache_carried_across_steps.py", 30, "backward"), ("kv_cache_carried_across_steps.py", 26, "outer")]),
    "kv_cache_option_on_in_training.py": ("backward-through-freed-graph", [
        ("kv_cache_option_on_in_training.py", 7, "fix"), ("kv_cache_option_on_in_training.py", 20, "fix"),
        ("kv_cache_option_on_in_training.py", 20, "created"), ("kv_cache_option_on_in_training.py", 20, "used"),
        ("kv_cache_option_on_in_training.py", 29, "carried"), ("kv_cache_option_on_in_training.py", 31, "freed"),
        ("kv_cache_option_on_in_training.py", 31, "backward"), ("kv_cache_option_on_in_training.py", 28, "outer")]),
    "advantages_made_before_epochs.py": ("backward-through-freed-graph", [
        ("advantages_made_before_epochs.py", 13, "fix"), ("advantages_made_before_epochs.py", 14, "fix"),
        ("advantages_made_before_epochs.py", 14, "created"), ("advantages_made_before_epochs.py", 17, "used"),
        ("advantages_made_before_epochs.py", 19, "freed"), ("advantages_made_before_epochs.py", 19, "backward"),
        ("advantages_made_before_epochs.py", 15, "outer")]),
    "discriminator_method_not_detached.py": ("backward-through-freed-graph", [
        ("discriminator_method_not_detached.py", 23, "fix"), ("discriminator_method_not_detached.py", 22, "created"),
        ("discriminator_method_not_detached.py", 14, "used"), ("discriminator_method_not_detached.py", 23, "linked"),
        ("discriminator_method_not_detached.py", 25, "freed"),
        ("discriminator_method_not_detached.py", 29, "backward")]),
    "memory_bank_view_then_queue.py": ("inplace-modified-saved-tensor", [
        ("memory_bank_view_then_queue.py", 13, "fix"), ("memory_bank_view_then_queue.py", 17, "fix"),
        ("memory_bank_view_then_queue.py", 29, "saved"), ("memory_bank_view_then_queue.py", 17, "modified"),
        ("memory_bank_view_then_queue.py", 32, "backward")]),
    "sam_gap_reuses_clean_loss.py": ("inplace-modified-saved-tensor", [
        ("sam_gap_reuses_clean_loss.py", 23, "fix"), ("sam_gap_reuses_clean_loss.py", 19, "saved"),
        ("sam_gap_reuses_clean_loss.py", 12, "modified"), ("sam_gap_reuses_clean_loss.py", 19, "built"),
        ("sam_gap_reuses_clean_loss.py", 24, "backward")]),
    "fused_conv_written_with_grad.py": ("inplace-on-leaf", [
        ("fused_conv_written_with_grad.py", 18, "fix"), ("fused_conv_written_with_grad.py", 25, "fix"),
        ("fused_conv_written_with_grad.py", 9, "created"), ("fused_conv_written_with_grad.py", 11, "modified")]),
    "hook_on_collected_frozen_parameter.py": ("hook-on-tensor-without-grad", [
        ("hook_on_collected_frozen_parameter.py", 14, "fix"),
        ("hook_on_collected_frozen_parameter.py", 19, "frozen"),
        ("hook_on_collected_frozen_parameter.py", 18, "defined"),
        ("hook_on_collected_frozen_parameter.py", 14, "failed")]),
    "custom_function_saved_input_refined_in_place.py": ("inplace-modified-saved-tensor", [
        ("custom_function_saved_input_refined_in_place.py", 24, "fix"),
        ("custom_function_saved_input_refined_in_place.py", 10, "fix"),
        ("custom_function_saved_input_refined_in_place.py", 22, "created"),
        ("custom_function_saved_input_refined_in_place.py", 23, "saved"),
        ("custom_function_saved_input_refined_in_place.py", 24, "modified"),
        ("custom_function_saved_input_refined_in_place.py", 10, "saved"),
        ("custom_function_saved_input_refined_in_place.py", 26, "backward")]),
    "inplace_option_in_config.py": ("inplace-modified-saved-tensor", [
        ("inplace_option_in_config.py", 7, "fix"), ("inplace_option_in_config.py", 24, "fix"),
        ("inplace_option_in_config.py", 24, "saved"), ("inplace_option_in_config.py", 24, "modified"),
        ("inplace_option_in_config.py", 31, "backward")]),
    "inplace_relu_registry.py": ("inplace-modified-saved-tensor", [
        ("inplace_relu_registry.py", 7, "fix"), ("inplace_relu_registry.py", 29, "created"),
        ("inplace_relu_registry.py", 21, "saved"), ("inplace_relu_registry.py", 22, "modified"),
        ("inplace_relu_registry.py", 30, "backward"), ("inplace_relu_registry.py", 10, "setting"),
        ("inplace_relu_registry.py", 28, "used")]),
    "integer_parameter.py": ("only-float-requires-grad", [
        ("integer_parameter.py", 10, "fix"), ("integer_parameter.py", 10, "failed"),
        ("integer_parameter.py", 16, "outer")]),
    "integer_requires_grad.py": ("only-float-requires-grad", [("integer_requires_grad.py", 5, "fix"),
        ("integer_requires_grad.py", 5, "failed")]),
    "leaf_moved_into_interior.py": ("leaf-moved-into-graph", [("leaf_moved_into_interior.py", 8, "fix"),
        ("leaf_moved_into_interior.py", 4, "created"), ("leaf_moved_into_interior.py", 8, "modified"),
        ("leaf_moved_into_interior.py", 9, "backward")]),
    "leaf_slice_assign.py": ("inplace-on-leaf", [("leaf_slice_assign.py", 6, "fix"),
        ("leaf_slice_assign.py", 4, "created"), ("leaf_slice_assign.py", 6, "modified")]),
    "legacy_function.py": ("legacy-autograd-function", [("legacy_function.py", 6, "fix"),
        ("legacy_function.py", 9, "fix"), ("legacy_function.py", 14, "failed")]),
    "loss_from_argmax.py": ("backward-without-graph", [("loss_from_argmax.py", 9, "fix"),
        ("loss_from_argmax.py", 9, "cut"), ("loss_from_argmax.py", 11, "backward")]),
    "loss_from_argmax_stacked.py": ("backward-without-graph", [
        ("loss_from_argmax_stacked.py", 19, "fix"), ("loss_from_argmax_stacked.py", 19, "cut"),
        ("loss_from_argmax_stacked.py", 19, "cut-input"), ("loss_from_argmax_stacked.py", 27, "backward"),
        ("loss_from_argmax_stacked.py", 25, "created"), ("loss_from_argmax_stacked.py", 15, "origin")]),
    "loss_option_thresholds.py": ("backward-without-graph", [("loss_option_thresholds.py", 21, "fix"),
        ("loss_option_thresholds.py", 14, "cut"), ("loss_option_thresholds.py", 21, "setting"),
        ("loss_option_thresholds.py", 23, "cut-input"), ("loss_option_thresholds.py", 24, "backward")]),
    "loss_rebuilt_from_item.py": ("backward-without-graph", [("loss_rebuilt_from_item.py", 9, "fix"),
        ("loss_rebuilt_from_item.py", 9, "cut"), ("loss_rebuilt_from_item.py", 11, "backward")]),
    "loss_under_no_grad.py": ("backward-without-graph", [("loss_under_no_grad.py", 10, "fix"),
        ("loss_under_no_grad.py", 11, "cut"), ("loss_under_no_grad.py", 10, "no-grad-block"),
        ("loss_under_no_grad.py", 6, "cut-input"), ("loss_under_no_grad.py", 13, "backward")]),
    "manual_sgd_step.py": ("inplace-on-leaf", [("manual_sgd_step.py", 15, "fix"),
        ("manual_sgd_step.py", 6, "created"), ("manual_sgd_step.py", 15, "modified")]),
    "memory_kept_on_module.py": ("backward-through-freed-graph", [
        ("memory_kept_on_module.py", 18, "fix"), ("memory_kept_on_module.py", 17, "created"),
        ("memory_kept_on_module.py", 16, "used"), ("memory_kept_on_module.py", 16, "created"),
        ("memory_kept_on_module.py", 28, "freed"), ("memory_kept_on_module.py", 28, "backward"),
        ("memory_kept_on_module.py", 25, "outer")]),
    "nan_with_anomaly.py": ("nan-in-backward", [("nan_with_anomaly.py", 7, "fix"),
        ("nan_with_anomaly.py", 7, "source"), ("nan_with_anomaly.py", 7, "created"),
        ("nan_with_anomaly.py", 8, "backward")]),
    "no_grad_view_inplace.py": ("no-grad-view-inplace", [("no_grad_view_inplace.py", 7, "fix"),
        ("no_grad_view_inplace.py", 6, "view"), ("no_grad_view_inplace.py", 5, "no-grad-block"),
        ("no_grad_view_inplace.py", 7, "failed")]),
    "numpy_on_loss.py": ("numpy-on-requires-grad", [("numpy_on_loss.py", 9, "fix"), ("numpy_on_loss.py", 8, "created"),
        ("numpy_on_loss.py", 9, "failed")]),
    "optimizer_non_leaf.py": ("optimizer-non-leaf", [("optimizer_non_leaf.py", 4, "fix"),
        ("optimizer_non_leaf.py", 4, "non-leaf"), ("optimizer_non_leaf.py", 6, "failed")]),
    "out_argument.py": ("out-argument-with-grad", [("out_argument.py", 6, "fix"), ("out_argument.py", 6, "failed")]),
    "reinforce_finish_episode_twice.py": ("backward-through-freed-graph", [
        ("reinforce_finish_episode_twice.py", 39, "fix"), ("reinforce_finish_episode_twice.py", 19, "created"),
        ("reinforce_finish_episode_twice.py", 25, "used"), ("reinforce_finish_episode_twice.py", 27, "freed"),
        ("reinforce_finish_episode_twice.py", 27, "backward"), ("reinforce_finish_episode_twice.py", 35, "outer")]),
    "reinforce_replay_memory.py": ("backward-through-freed-graph", [
        ("reinforce_replay_memory.py", 22, "fix"), ("reinforce_replay_memory.py", 36, "created"),
        ("reinforce_replay_memory.py", 24, "used"), ("reinforce_replay_memory.py", 22, "kept"),
        ("reinforce_replay_memory.py", 26, "freed"), ("reinforce_replay_memory.py", 26, "backward"),
        ("reinforce_replay_memory.py", 32, "outer")]),
    "relu_inplace_after_sigmoid.py": ("inplace-modified-saved-tensor", [
        ("relu_inplace_after_sigmoid.py", 11, "fix"), ("relu_inplace_after_sigmoid.py", 14, "saved"),
        ("relu_inplace_after_sigmoid.py", 15, "modified"), ("relu_inplace_after_sigmoid.py", 21, "backward"),
        ("relu_inplace_after_sigmoid.py", 19, "outer")]),
    "requires_grad_on_nonleaf.py": ("requires-grad-on-non-leaf", [("requires_grad_on_nonleaf.py", 6, "fix"),
        ("requires_grad_on_nonleaf.py", 6, "non-leaf"), ("requires_grad_on_nonleaf.py", 7, "failed")]),
    "residual_inplace.py": ("inplace-modified-saved-tensor", [("lib/blocks.py", 16, "fix"),
        ("lib/blocks.py", 15, "saved"), ("lib/blocks.py", 16, "modified"), ("residual_inplace.py", 19, "backward")]),
    "resize_output.py": ("resize-requires-grad", [("resize_output.py", 7, "fix"),
        ("resize_output.py", 6, "created"), ("resize_output.py", 7, "failed")]),
    "rnn_hidden_state.py": ("backward-through-freed-graph", [
        ("rnn_hidden_state.py", 13, "fix"), ("rnn_hidden_state.py", 13, "created"),
        ("rnn_hidden_state.py", 13, "used"), ("rnn_hidden_state.py", 16, "freed"),
        ("rnn_hidden_state.py", 16, "backward"), ("rnn_hidden_state.py", 11, "outer")]),
    "second_order_without_create_graph.py": ("backward-without-graph", [
        ("second_order_without_create_graph.py", 6, "fix"), ("second_order_without_create_graph.py", 6, "cut"),
        ("second_order_without_create_graph.py", 8, "backward")]),
    "split_inplace_in_configured_branch.py": ("multi-output-view-inplace", [
        ("split_inplace_in_configured_branch.py", 19, "created"), ("split_inplace_in_configured_branch.py", 21, "failed"),
        ("split_inplace_in_configured_branch.py", 29, "origin"), ("split_inplace_in_configured_branch.py", 7, "setting"),
        ("split_inplace_in_configured_branch.py", 27, "used")]),
    "unbind_rows_inplace.py": ("multi-output-view-inplace", [("unbind_rows_inplace.py", 6, "created"),
        ("unbind_rows_inplace.py", 7, "failed"), ("unbind_rows_inplace.py", 5, "origin")]),
}

NEEDS_NUMPY = {"numpy_on_loss.py"}

# Silent hazards: the program succeeds; gradscope warns and names the lines.
SILENT = {
    "silent_param_groups_elif_without_else.py": ("parameter-not-in-optimizer", [("silent_param_groups_elif_without_else.py", 23, "fix"), ("silent_param_groups_elif_without_else.py", 10, "parameter"), ("silent_param_groups_elif_without_else.py", 29, "model"),
        ("silent_param_groups_elif_without_else.py", 30, "optimizer"), ("silent_param_groups_elif_without_else.py", 35, "step"), ("silent_param_groups_elif_without_else.py", 34, "backward")]),
    "silent_best_state_kept_by_reference.py": ("load-state-dict-no-op", [("silent_best_state_kept_by_reference.py", 17, "fix"), ("silent_best_state_kept_by_reference.py", 18, "load"), ("silent_best_state_kept_by_reference.py", 15, "modified"),
        ("silent_best_state_kept_by_reference.py", 14, "affected")]),
    "silent_target_loaded_from_itself.py": ("load-state-dict-no-op", [("silent_target_loaded_from_itself.py", 16, "fix"), ("silent_target_loaded_from_itself.py", 16, "load"), ("silent_target_loaded_from_itself.py", 25, "modified"),
        ("silent_target_loaded_from_itself.py", 24, "affected")]),
    "silent_aux_loss_counted_twice.py": ("loss-term-counted-twice", [("silent_aux_loss_counted_twice.py", 18, "fix"), ("silent_aux_loss_counted_twice.py", 17, "created"), ("silent_aux_loss_counted_twice.py", 27, "summed"),
        ("silent_aux_loss_counted_twice.py", 18, "summed"), ("silent_aux_loss_counted_twice.py", 27, "loss"), ("silent_aux_loss_counted_twice.py", 29, "backward"), ("silent_aux_loss_counted_twice.py", 26, "outer")]),
    "silent_eval_freeze_in_main.py": ("eval-mode-module-trained", [("silent_eval_freeze_in_main.py", 21, "fix"), ("silent_eval_freeze_in_main.py", 21, "mode"), ("silent_eval_freeze_in_main.py", 10, "defined"),
        ("silent_eval_freeze_in_main.py", 27, "step"), ("silent_eval_freeze_in_main.py", 22, "optimizer"), ("silent_eval_freeze_in_main.py", 26, "backward")]),
    "zero_grad_before_inner_loop.py": ("grad-not-zeroed", [("zero_grad_before_inner_loop.py", 12, "fix"), ("zero_grad_before_inner_loop.py", 16, "step"), ("zero_grad_before_inner_loop.py", 15, "backward"),
        ("zero_grad_before_inner_loop.py", 13, "loop"), ("zero_grad_before_inner_loop.py", 8, "optimizer")]),
    "silent_patch_initialised_at_clamp_bound.py": ("zero-gradient", [
        ("silent_patch_initialised_at_clamp_bound.py", 21, "fix"),
        ("silent_patch_initialised_at_clamp_bound.py", 7, "fix"),
        ("silent_patch_initialised_at_clamp_bound.py", 21, "created"),
        ("silent_patch_initialised_at_clamp_bound.py", 17, "defined"),
        ("silent_patch_initialised_at_clamp_bound.py", 14, "created"),
        ("silent_patch_initialised_at_clamp_bound.py", 33, "step"),
        ("silent_patch_initialised_at_clamp_bound.py", 7, "setting"),
        ("silent_patch_initialised_at_clamp_bound.py", 27, "used"),
        ("silent_patch_initialised_at_clamp_bound.py", 28, "optimizer"),
        ("silent_patch_initialised_at_clamp_bound.py", 32, "backward")]),
    "silent_teacher_is_student_by_mode.py": ("target-is-online-network", [
        ("silent_teacher_is_student_by_mode.py", 20, "alias"),
        ("silent_teacher_is_student_by_mode.py", 27, "target"),
        ("silent_teacher_is_student_by_mode.py", 9, "setting"), ("silent_teacher_is_student_by_mode.py", 19, "used"),
        ("silent_teacher_is_student_by_mode.py", 31, "affected")]),
    "silent_loss_term_from_no_grad_helper.py": ("loss-term-without-gradient", [
        ("silent_loss_term_from_no_grad_helper.py", 8, "fix"), ("silent_loss_term_from_no_grad_helper.py", 10, "cut"),
        ("silent_loss_term_from_no_grad_helper.py", 8, "no-grad-block"),
        ("silent_loss_term_from_no_grad_helper.py", 14, "cut-input"),
        ("silent_loss_term_from_no_grad_helper.py", 20, "term"), ("silent_loss_term_from_no_grad_helper.py", 21, "backward")]),
    "silent_clip_before_unscale.py": ("clipped-while-scaled", [
        ("silent_clip_before_unscale.py", 16, "fix"), ("silent_clip_before_unscale.py", 15, "backward"),
        ("silent_clip_before_unscale.py", 17, "step"), ("silent_clip_before_unscale.py", 10, "mode")]),
    "silent_reset_behind_default_flag.py": ("grad-not-zeroed", [
        ("silent_reset_behind_default_flag.py", 21, "fix"), ("silent_reset_behind_default_flag.py", 13, "fix"),
        ("silent_reset_behind_default_flag.py", 14, "step"), ("silent_reset_behind_default_flag.py", 20, "backward"),
        ("silent_reset_behind_default_flag.py", 15, "state"), ("silent_reset_behind_default_flag.py", 11, "optimizer")]),
    "silent_accumulation_reset.py": ("accumulation-wiped", [
        ("silent_accumulation_reset.py", 18, "fix"), ("silent_accumulation_reset.py", 18, "zero_grad"),
        ("silent_accumulation_reset.py", 19, "backward"), ("silent_accumulation_reset.py", 21, "step"),
        ("silent_accumulation_reset.py", 20, "condition"), ("silent_accumulation_reset.py", 8, "optimizer")]),
    "silent_checkpoint_frozen_input.py": ("parameter-without-gradient", [
        ("silent_checkpoint_frozen_input.py", 18, "fix"), ("silent_checkpoint_frozen_input.py", 18, "cut"),
        ("silent_checkpoint_frozen_input.py", 14, "cut-input"),
        ("silent_checkpoint_frozen_input.py", 14, "parameter"),
        ("silent_checkpoint_frozen_input.py", 26, "backward"), ("silent_checkpoint_frozen_input.py", 27, "step"),
        ("silent_checkpoint_frozen_input.py", 23, "optimizer")]),
    "mask_rebuilt_at_prune_epoch.py": ("parameter-not-in-optimizer", [
        ("mask_rebuilt_at_prune_epoch.py", 22, "fix"), ("mask_rebuilt_at_prune_epoch.py", 26, "fix"),
        ("mask_rebuilt_at_prune_epoch.py", 22, "parameter"), ("mask_rebuilt_at_prune_epoch.py", 26, "optimizer"),
        ("mask_rebuilt_at_prune_epoch.py", 35, "step"), ("mask_rebuilt_at_prune_epoch.py", 39, "setting"),
        ("mask_rebuilt_at_prune_epoch.py", 34, "backward")]),
    "stacked_cells_in_plain_list.py": ("parameter-not-in-optimizer", [
        ("stacked_cells_in_plain_list.py", 20, "fix"), ("stacked_cells_in_plain_list.py", 22, "filled"),
        ("stacked_cells_in_plain_list.py", 10, "parameter"), ("stacked_cells_in_plain_list.py", 11, "parameter"),
        ("stacked_cells_in_plain_list.py", 42, "step"), ("stacked_cells_in_plain_list.py", 36, "optimizer"),
        ("stacked_cells_in_plain_list.py", 41, "backward")]),
    "validation_at_first_iteration.py": ("training-in-eval-mode", [
        ("validation_at_first_iteration.py", 26, "fix"), ("validation_at_first_iteration.py", 19, "used"),
        ("validation_at_first_iteration.py", 16, "mode"), ("validation_at_first_iteration.py", 34, "created"),
        ("validation_at_first_iteration.py", 28, "backward"), ("validation_at_first_iteration.py", 29, "affected"),
        ("validation_at_first_iteration.py", 34, "defined")]),
    "function_ignores_grad_output.py": ("function-ignores-incoming-gradient", [
        ("function_ignores_grad_output.py", 17, "fix"), ("function_ignores_grad_output.py", 26, "created"),
        ("function_ignores_grad_output.py", 29, "backward"), ("function_ignores_grad_output.py", 30, "step"),
        ("function_ignores_grad_output.py", 23, "optimizer")]),
    "bn_eval_undone_by_train.py": ("eval-undone-by-train", [("bn_eval_undone_by_train.py", 29, "fix"), ("bn_eval_undone_by_train.py", 20, "mode"), ("bn_eval_undone_by_train.py", 11, "defined"), ("bn_eval_undone_by_train.py", 32, "used"), ("bn_eval_undone_by_train.py", 34, "backward")]),
    "backbone_eval_under_freeze_flag.py": ("eval-mode-module-trained", [
        ("backbone_eval_under_freeze_flag.py", 14, "fix"), ("backbone_eval_under_freeze_flag.py", 14, "mode"),
        ("backbone_eval_under_freeze_flag.py", 11, "defined"), ("backbone_eval_under_freeze_flag.py", 29, "step"),
        ("backbone_eval_under_freeze_flag.py", 23, "optimizer"),
        ("backbone_eval_under_freeze_flag.py", 28, "backward")]),
    "accumulation_without_averaging.py": ("accumulated-gradients-summed", [
        ("accumulation_without_averaging.py", 18, "fix"), ("accumulation_without_averaging.py", 26, "step"),
        ("accumulation_without_averaging.py", 25, "condition"), ("accumulation_without_averaging.py", 7, "setting"),
        ("accumulation_without_averaging.py", 14, "optimizer")]),
    "kl_term_left_out.py": ("loss-value-left-out", [
        ("kl_term_left_out.py", 26, "fix"), ("kl_term_left_out.py", 25, "created"),
        ("kl_term_left_out.py", 28, "backward")]),
    "term_detached_in_place_by_reset.py": ("loss-term-without-gradient", [
        ("term_detached_in_place_by_reset.py", 15, "fix"), ("term_detached_in_place_by_reset.py", 15, "cut"),
        ("term_detached_in_place_by_reset.py", 18, "cut-input"), ("term_detached_in_place_by_reset.py", 33, "term"),
        ("term_detached_in_place_by_reset.py", 35, "backward"), ("term_detached_in_place_by_reset.py", 32, "outer")]),
    "penalty_never_added.py": ("gradient-graph-unused", [
        ("penalty_never_added.py", 35, "fix"), ("penalty_never_added.py", 23, "created"),
        ("penalty_never_added.py", 22, "grad"), ("penalty_never_added.py", 36, "backward")]),
    "silent_create_graph.py": ("backward-create-graph-cycle", [("silent_create_graph.py", 8, "fix"),
        ("silent_create_graph.py", 8, "backward")]),
    "silent_data_write_saved.py": ("data-write-to-saved-tensor", [("silent_data_write_saved.py", 9, "fix"),
        ("silent_data_write_saved.py", 7, "saved"), ("silent_data_write_saved.py", 9, "modified"),
        ("silent_data_write_saved.py", 10, "backward")]),
    "silent_detached_encoder.py": ("parameter-without-gradient", [
        ("silent_detached_encoder.py", 15, "fix"), ("silent_detached_encoder.py", 15, "cut"),
        ("silent_detached_encoder.py", 11, "parameter"), ("silent_detached_encoder.py", 25, "backward"),
        ("silent_detached_encoder.py", 26, "step"), ("silent_detached_encoder.py", 20, "optimizer")]),
    "silent_encoder_under_no_grad.py": ("parameter-without-gradient", [
        ("silent_encoder_under_no_grad.py", 15, "fix"), ("silent_encoder_under_no_grad.py", 16, "cut"),
        ("silent_encoder_under_no_grad.py", 15, "no-grad-block"),
        ("silent_encoder_under_no_grad.py", 9, "cut-input"), ("silent_encoder_under_no_grad.py", 9, "defined"),
        ("silent_encoder_under_no_grad.py", 23, "step"), ("silent_encoder_under_no_grad.py", 11, "optimizer"),
        ("silent_encoder_under_no_grad.py", 22, "backward")]),
    "silent_eval_as_freeze.py": ("eval-mode-module-trained", [
        ("silent_eval_as_freeze.py", 19, "fix"), ("silent_eval_as_freeze.py", 19, "mode"),
        ("silent_eval_as_freeze.py", 10, "defined"), ("silent_eval_as_freeze.py", 26, "step"),
        ("silent_eval_as_freeze.py", 20, "optimizer"), ("silent_eval_as_freeze.py", 25, "backward")]),
    "silent_forgot_zero_grad.py": ("grad-not-zeroed", [
        ("silent_forgot_zero_grad.py", 11, "fix"), ("silent_forgot_zero_grad.py", 12, "step"),
        ("silent_forgot_zero_grad.py", 11, "backward"), ("silent_forgot_zero_grad.py", 7, "optimizer")]),
    "silent_loss_rewrapped_by_tensor.py": ("requires-grad-on-detached-result", [("silent_loss_rewrapped_by_tensor.py", 10, "fix"), ("silent_loss_rewrapped_by_tensor.py", 10, "requires-grad"), ("silent_loss_rewrapped_by_tensor.py", 10, "cut"), ("silent_loss_rewrapped_by_tensor.py", 9, "cut-input"), ("silent_loss_rewrapped_by_tensor.py", 20, "backward")]),
    "silent_step_never_reached.py": ("optimizer-step-never-ran", [
        ("silent_step_never_reached.py", 21, "fix"), ("silent_step_never_reached.py", 20, "backward"),
        ("silent_step_never_reached.py", 22, "step"), ("silent_step_never_reached.py", 10, "setting"),
        ("silent_step_never_reached.py", 15, "optimizer")]),
    "silent_layers_replaced_after_training.py": ("parameter-not-in-optimizer", [
        ("silent_layers_replaced_after_training.py", 16, "fix"),
        ("silent_layers_replaced_after_training.py", 10, "parameter"),
        ("silent_layers_replaced_after_training.py", 11, "parameter"),
        ("silent_layers_replaced_after_training.py", 16, "optimizer"),
        ("silent_layers_replaced_after_training.py", 25, "step"),
        ("silent_layers_replaced_after_training.py", 10, "modified"),
        ("silent_layers_replaced_after_training.py", 24, "backward")]),
    "silent_eval_every_n_steps.py": ("training-in-eval-mode", [
        ("silent_eval_every_n_steps.py", 26, "fix"), ("silent_eval_every_n_steps.py", 16, "mode"),
        ("silent_eval_every_n_steps.py", 18, "used"), ("silent_eval_every_n_steps.py", 30, "backward"),
        ("silent_eval_every_n_steps.py", 31, "affected"), ("silent_eval_every_n_steps.py", 22, "defined"),
        ("silent_eval_every_n_steps.py", 11, "setting")]),
    "silent_train_mode_set_once.py": ("training-in-eval-mode", [
        ("silent_train_mode_set_once.py", 19, "fix"), ("silent_train_mode_set_once.py", 9, "mode"),
        ("silent_train_mode_set_once.py", 11, "used"), ("silent_train_mode_set_once.py", 23, "backward"),
        ("silent_train_mode_set_once.py", 24, "affected"), ("silent_train_mode_set_once.py", 15, "defined")]),
    "silent_eval_through_shared_helper.py": ("training-in-eval-mode", [
        ("silent_eval_through_shared_helper.py", 34, "fix"), ("silent_eval_through_shared_helper.py", 24, "mode"),
        ("silent_eval_through_shared_helper.py", 26, "used"),
        ("silent_eval_through_shared_helper.py", 37, "backward"),
        ("silent_eval_through_shared_helper.py", 38, "affected"),
        ("silent_eval_through_shared_helper.py", 12, "defined")]),
    "silent_loaded_in_eval_mode.py": ("training-in-eval-mode", [
        ("silent_loaded_in_eval_mode.py", 22, "fix"), ("silent_loaded_in_eval_mode.py", 20, "created"),
        ("silent_loaded_in_eval_mode.py", 31, "backward"), ("silent_loaded_in_eval_mode.py", 32, "affected"),
        ("silent_loaded_in_eval_mode.py", 11, "defined")]),
    "silent_frozen_bn_back_in_train.py": ("frozen-norm-in-train-mode", [
        ("silent_frozen_bn_back_in_train.py", 19, "fix"), ("silent_frozen_bn_back_in_train.py", 31, "fix"),
        ("silent_frozen_bn_back_in_train.py", 16, "frozen"), ("silent_frozen_bn_back_in_train.py", 34, "used"),
        ("silent_frozen_bn_back_in_train.py", 11, "defined"), ("silent_frozen_bn_back_in_train.py", 35, "affected")]),
    "silent_meter_keeps_graphs.py": ("graph-kept-alive", [
        ("silent_meter_keeps_graphs.py", 12, "fix"), ("silent_meter_keeps_graphs.py", 29, "fix"),
        ("silent_meter_keeps_graphs.py", 25, "created"), ("silent_meter_keeps_graphs.py", 12, "kept"),
        ("silent_meter_keeps_graphs.py", 27, "affected")]),
    "silent_frozen_before_optimizer.py": ("parameter-not-in-optimizer", [
        ("silent_frozen_before_optimizer.py", 11, "fix"), ("silent_frozen_before_optimizer.py", 15, "cut"),
        ("silent_frozen_before_optimizer.py", 19, "modified"), ("silent_frozen_before_optimizer.py", 36, "step"),
        ("silent_frozen_before_optimizer.py", 26, "optimizer"), ("silent_frozen_before_optimizer.py", 35, "backward")]),
    "silent_custom_optimizer_moves_frozen.py": ("frozen-parameter-updated", [
        ("silent_custom_optimizer_moves_frozen.py", 17, "fix"),
        ("silent_custom_optimizer_moves_frozen.py", 25, "frozen"),
        ("silent_custom_optimizer_moves_frozen.py", 23, "defined"),
        ("silent_custom_optimizer_moves_frozen.py", 32, "step"),
        ("silent_custom_optimizer_moves_frozen.py", 26, "optimizer"),
        ("silent_custom_optimizer_moves_frozen.py", 31, "backward")]),
    "silent_ema_without_buffers.py": ("norm-evaluated-without-statistics", [
        ("silent_ema_without_buffers.py", 17, "fix"), ("silent_ema_without_buffers.py", 33, "used"),
        ("silent_ema_without_buffers.py", 29, "affected")]),
    "silent_zero_grad_before_step.py": ("parameter-without-gradient", [
        ("silent_zero_grad_before_step.py", 13, "fix"), ("silent_zero_grad_before_step.py", 7, "defined"),
        ("silent_zero_grad_before_step.py", 12, "backward"), ("silent_zero_grad_before_step.py", 14, "step"),
        ("silent_zero_grad_before_step.py", 8, "optimizer")]),
    "silent_forward_decorated_no_grad.py": ("parameter-without-gradient", [
        ("silent_forward_decorated_no_grad.py", 12, "fix"), ("silent_forward_decorated_no_grad.py", 14, "cut"),
        ("silent_forward_decorated_no_grad.py", 12, "no-grad-block"),
        ("silent_forward_decorated_no_grad.py", 10, "cut-input"),
        ("silent_forward_decorated_no_grad.py", 10, "parameter"),
        ("silent_forward_decorated_no_grad.py", 24, "step"), ("silent_forward_decorated_no_grad.py", 23, "backward"),
        ("silent_forward_decorated_no_grad.py", 19, "optimizer")]),
    "silent_embedding_sum_through_data.py": ("parameter-without-gradient", [
        ("silent_embedding_sum_through_data.py", 15, "fix"), ("silent_embedding_sum_through_data.py", 15, "cut"),
        ("silent_embedding_sum_through_data.py", 10, "parameter"),
        ("silent_embedding_sum_through_data.py", 26, "backward"),
        ("silent_embedding_sum_through_data.py", 27, "step"),
        ("silent_embedding_sum_through_data.py", 21, "optimizer")]),
    "silent_freeze_undone.py": ("freeze-undone", [
        ("silent_freeze_undone.py", 13, "fix"), ("silent_freeze_undone.py", 9, "frozen"),
        ("silent_freeze_undone.py", 19, "backward"), ("silent_freeze_undone.py", 20, "step"),
        ("silent_freeze_undone.py", 15, "optimizer")]),
    "silent_frozen_still_updated.py": ("frozen-parameter-updated", [
        ("silent_frozen_still_updated.py", 25, "fix"), ("silent_frozen_still_updated.py", 24, "fix"),
        ("silent_frozen_still_updated.py", 24, "frozen"), ("silent_frozen_still_updated.py", 10, "defined"),
        ("silent_frozen_still_updated.py", 28, "step"), ("silent_frozen_still_updated.py", 19, "optimizer"),
        ("silent_frozen_still_updated.py", 27, "backward")]),
    "silent_freeze_schedule_late.py": ("frozen-parameter-updated", [
        ("silent_freeze_schedule_late.py", 33, "fix"), ("silent_freeze_schedule_late.py", 24, "fix"),
        ("silent_freeze_schedule_late.py", 24, "frozen"), ("silent_freeze_schedule_late.py", 14, "defined"),
        ("silent_freeze_schedule_late.py", 36, "step"), ("silent_freeze_schedule_late.py", 29, "optimizer"),
        ("silent_freeze_schedule_late.py", 35, "backward")]),
    "silent_eval_whole_model_as_freeze.py": ("eval-mode-module-trained", [
        ("silent_eval_whole_model_as_freeze.py", 21, "fix"), ("silent_eval_whole_model_as_freeze.py", 28, "fix"),
        ("silent_eval_whole_model_as_freeze.py", 21, "mode"),
        ("silent_eval_whole_model_as_freeze.py", 12, "defined"),
        ("silent_eval_whole_model_as_freeze.py", 34, "step"), ("silent_eval_whole_model_as_freeze.py", 27, "outer"),
        ("silent_eval_whole_model_as_freeze.py", 33, "backward")]),
    "silent_loss_weights_left_out.py": ("parameter-not-in-optimizer", [
        ("silent_loss_weights_left_out.py", 30, "fix"), ("silent_loss_weights_left_out.py", 11, "parameter"),
        ("silent_loss_weights_left_out.py", 29, "model"), ("silent_loss_weights_left_out.py", 30, "optimizer"),
        ("silent_loss_weights_left_out.py", 35, "step"), ("silent_loss_weights_left_out.py", 34, "backward")]),
    "silent_tied_head_unfrozen.py": ("freeze-undone", [
        ("silent_tied_head_unfrozen.py", 14, "fix"), ("silent_tied_head_unfrozen.py", 24, "modified"),
        ("silent_tied_head_unfrozen.py", 23, "frozen"), ("silent_tied_head_unfrozen.py", 11, "built"),
        ("silent_tied_head_unfrozen.py", 31, "backward"), ("silent_tied_head_unfrozen.py", 32, "step"),
        ("silent_tied_head_unfrozen.py", 25, "optimizer")]),
    "silent_module_backward_never_called.py": ("module-backward-never-called", [
        ("silent_module_backward_never_called.py", 14, "fix"), ("silent_module_backward_never_called.py", 16, "defined"),
        ("silent_module_backward_never_called.py", 27, "used"), ("silent_module_backward_never_called.py", 29, "backward")]),
    "silent_parameters_filtered_by_name.py": ("parameter-not-in-optimizer", [
        ("silent_parameters_filtered_by_name.py", 30, "fix"),
        ("silent_parameters_filtered_by_name.py", 11, "parameter"),
        ("silent_parameters_filtered_by_name.py", 29, "model"),
        ("silent_parameters_filtered_by_name.py", 31, "optimizer"),
        ("silent_parameters_filtered_by_name.py", 37, "step"),
        ("silent_parameters_filtered_by_name.py", 36, "backward")]),
    "silent_param_groups_past_a_guard.py": ("parameter-not-in-optimizer", [("silent_param_groups_past_a_guard.py", 34, "fix"), ("silent_param_groups_past_a_guard.py", 13, "parameter"), ("silent_param_groups_past_a_guard.py", 38, "model"), ("silent_param_groups_past_a_guard.py", 39, "optimizer"), ("silent_param_groups_past_a_guard.py", 44, "step"), ("silent_param_groups_past_a_guard.py", 43, "backward"), ("silent_param_groups_past_a_guard.py", 24, "defined"), ("silent_param_groups_past_a_guard.py", 28, "used"), ("silent_param_groups_past_a_guard.py", 7, "setting"), ("silent_param_groups_past_a_guard.py", 38, "used")]),
    "silent_param_groups_leave_out_head.py": ("parameter-not-in-optimizer", [("silent_param_groups_leave_out_head.py", 21, "fix"), ("silent_param_groups_leave_out_head.py", 12, "parameter"), ("silent_param_groups_leave_out_head.py", 26, "model"), ("silent_param_groups_leave_out_head.py", 27, "optimizer"), ("silent_param_groups_leave_out_head.py", 32, "step"), ("silent_param_groups_leave_out_head.py", 31, "backward"), ("silent_param_groups_leave_out_head.py", 15, "used")]),
    "silent_helper_called_in_no_grad_block.py": ("loss-term-without-gradient", [
        ("silent_helper_called_in_no_grad_block.py", 24, "fix"),
        ("silent_helper_called_in_no_grad_block.py", 22, "fix"),
        ("silent_helper_called_in_no_grad_block.py", 17, "cut"),
        ("silent_helper_called_in_no_grad_block.py", 22, "no-grad-block"),
        ("silent_helper_called_in_no_grad_block.py", 17, "cut-input"),
        ("silent_helper_called_in_no_grad_block.py", 36, "term"),
        ("silent_helper_called_in_no_grad_block.py", 38, "backward")]),
    "silent_gradient_check_before_training.py": ("gradients-leak-into-first-step", [
        ("silent_gradient_check_before_training.py", 24, "fix"),
        ("silent_gradient_check_before_training.py", 10, "fix"),
        ("silent_gradient_check_before_training.py", 23, "step"),
        ("silent_gradient_check_before_training.py", 22, "backward"),
        ("silent_gradient_check_before_training.py", 17, "optimizer")]),
    "silent_model_rebuilt_after_optimizer.py": ("parameter-not-in-optimizer", [
        ("silent_model_rebuilt_after_optimizer.py", 16, "fix"),
        ("silent_model_rebuilt_after_optimizer.py", 20, "fix"),
        ("silent_model_rebuilt_after_optimizer.py", 9, "parameter"),
        ("silent_model_rebuilt_after_optimizer.py", 16, "optimizer"),
        ("silent_model_rebuilt_after_optimizer.py", 25, "step"),
        ("silent_model_rebuilt_after_optimizer.py", 20, "model"),
        ("silent_model_rebuilt_after_optimizer.py", 30, "outer"),
        ("silent_model_rebuilt_after_optimizer.py", 24, "backward")]),
    "silent_freeze_in_step_hook.py": ("frozen-parameter-updated", [
        ("silent_freeze_in_step_hook.py", 16, "fix"), ("silent_freeze_in_step_hook.py", 23, "fix"),
        ("silent_freeze_in_step_hook.py", 23, "hook"), ("silent_freeze_in_step_hook.py", 20, "defined"),
        ("silent_freeze_in_step_hook.py", 27, "backward"), ("silent_freeze_in_step_hook.py", 28, "step"),
        ("silent_freeze_in_step_hook.py", 22, "setting"), ("silent_freeze_in_step_hook.py", 21, "optimizer")]),
    "silent_mask_filled_with_plus_inf.py": ("nonfinite-gradient", [
        ("silent_mask_filled_with_plus_inf.py", 16, "fix"), ("silent_mask_filled_with_plus_inf.py", 17, "origin"),
        ("silent_mask_filled_with_plus_inf.py", 16, "masked"),
        ("silent_mask_filled_with_plus_inf.py", 24, "created"),
        ("silent_mask_filled_with_plus_inf.py", 26, "backward"), ("silent_mask_filled_with_plus_inf.py", 27, "step")]),
    "silent_relu_scale_divides.py": ("nonfinite-gradient", [
        ("silent_relu_scale_divides.py", 20, "fix"), ("silent_relu_scale_divides.py", 9, "created"),
        ("silent_relu_scale_divides.py", 23, "backward"), ("silent_relu_scale_divides.py", 20, "created"),
        ("silent_relu_scale_divides.py", 8, "created"), ("silent_relu_scale_divides.py", 21, "outer")]),
    "silent_accumulation_reset_on_step_iteration.py": ("accumulation-wiped", [
        ("silent_accumulation_reset_on_step_iteration.py", 11, "fix"),
        ("silent_accumulation_reset_on_step_iteration.py", 16, "fix"),
        ("silent_accumulation_reset_on_step_iteration.py", 12, "zero_grad"),
        ("silent_accumulation_reset_on_step_iteration.py", 14, "backward"),
        ("silent_accumulation_reset_on_step_iteration.py", 16, "step"),
        ("silent_accumulation_reset_on_step_iteration.py", 15, "condition"),
        ("silent_accumulation_reset_on_step_iteration.py", 6, "setting"),
        ("silent_accumulation_reset_on_step_iteration.py", 9, "optimizer")]),
    "silent_module_flag_via_getattr.py": ("module-requires-grad-attribute", [
        ("silent_module_flag_via_getattr.py", 16, "fix"), ("silent_module_flag_via_getattr.py", 10, "parameter"),
        ("silent_module_flag_via_getattr.py", 30, "step"), ("silent_module_flag_via_getattr.py", 24, "outer"),
        ("silent_module_flag_via_getattr.py", 25, "optimizer"), ("silent_module_flag_via_getattr.py", 29, "backward")]),
    "silent_zero_grad_setting_keeps_frozen_moving.py": ("frozen-parameter-updated", [
        ("silent_zero_grad_setting_keeps_frozen_moving.py", 6, "fix"),
        ("silent_zero_grad_setting_keeps_frozen_moving.py", 12, "fix"),
        ("silent_zero_grad_setting_keeps_frozen_moving.py", 24, "zero_grad"),
        ("silent_zero_grad_setting_keeps_frozen_moving.py", 12, "frozen"),
        ("silent_zero_grad_setting_keeps_frozen_moving.py", 16, "defined"),
        ("silent_zero_grad_setting_keeps_frozen_moving.py", 23, "step"),
        ("silent_zero_grad_setting_keeps_frozen_moving.py", 17, "optimizer"),
        ("silent_zero_grad_setting_keeps_frozen_moving.py", 22, "backward")]),
    "silent_backbone_eval_undone_by_train.py": ("frozen-norm-in-train-mode", [
        ("silent_backbone_eval_undone_by_train.py", 15, "fix"),
        ("silent_backbone_eval_undone_by_train.py", 24, "fix"),
        ("silent_backbone_eval_undone_by_train.py", 10, "frozen"),
        ("silent_backbone_eval_undone_by_train.py", 26, "used"),
        ("silent_backbone_eval_undone_by_train.py", 19, "defined"),
        ("silent_backbone_eval_undone_by_train.py", 28, "affected")]),
    "silent_clip_before_backward.py": ("clipped-before-backward", [("silent_clip_before_backward.py", 10, "fix"),
        ("silent_clip_before_backward.py", 11, "backward"), ("silent_clip_before_backward.py", 12, "step")]),
    "silent_layer_built_in_forward.py": ("layer-built-in-forward", [
        ("silent_layer_built_in_forward.py", 17, "fix"), ("silent_layer_built_in_forward.py", 25, "affected")]),
    "silent_layers_in_list.py": ("parameter-not-in-optimizer", [
        ("silent_layers_in_list.py", 11, "fix"), ("silent_layers_in_list.py", 11, "parameter"),
        ("silent_layers_in_list.py", 26, "step"), ("silent_layers_in_list.py", 21, "optimizer"),
        ("silent_layers_in_list.py", 25, "backward")]),
    "silent_loss_rebuilt_as_leaf.py": ("backward-on-leaf", [("silent_loss_rebuilt_as_leaf.py", 19, "fix"),
        ("silent_loss_rebuilt_as_leaf.py", 18, "cut"), ("silent_loss_rebuilt_as_leaf.py", 20, "backward")]),
    "silent_branch_from_derived_setting.py": ("requires-grad-on-detached-result", [
        ("silent_branch_from_derived_setting.py", 20, "fix"),
        ("silent_branch_from_derived_setting.py", 20, "requires-grad"),
        ("silent_branch_from_derived_setting.py", 20, "cut"),
        ("silent_branch_from_derived_setting.py", 18, "cut-input"),
        ("silent_branch_from_derived_setting.py", 32, "backward"),
        ("silent_branch_from_derived_setting.py", 29, "created"),
        ("silent_branch_from_derived_setting.py", 7, "setting"),
        ("silent_branch_from_derived_setting.py", 13, "used"), ("silent_branch_from_derived_setting.py", 25, "outer")]),
    "silent_loss_term_detached.py": ("loss-term-without-gradient", [("silent_loss_term_detached.py", 15, "fix"),
        ("silent_loss_term_detached.py", 15, "cut"), ("silent_loss_term_detached.py", 13, "cut-input"),
        ("silent_loss_term_detached.py", 16, "term"),
        ("silent_loss_term_detached.py", 18, "backward")]),
    "silent_loss_term_item.py": ("loss-term-without-gradient", [("silent_loss_term_item.py", 13, "fix"),
        ("silent_loss_term_item.py", 13, "cut"), ("silent_loss_term_item.py", 12, "cut-input"),
        ("silent_loss_term_item.py", 14, "term"),
        ("silent_loss_term_item.py", 16, "backward")]),
    "silent_module_requires_grad.py": ("module-requires-grad-attribute", [
        ("silent_module_requires_grad.py", 20, "fix"), ("silent_module_requires_grad.py", 12, "parameter"),
        ("silent_module_requires_grad.py", 27, "step"), ("silent_module_requires_grad.py", 21, "optimizer"),
        ("silent_module_requires_grad.py", 26, "backward")]),
    "silent_nan_distance.py": ("nonfinite-gradient", [("silent_nan_distance.py", 12, "fix"),
        ("silent_nan_distance.py", 12, "created"), ("silent_nan_distance.py", 14, "backward"),
        ("silent_nan_distance.py", 15, "step")]),
    "silent_nan_late_overflow.py": ("nonfinite-gradient", [("silent_nan_late_overflow.py", 8, "fix"),
        ("silent_nan_late_overflow.py", 8, "origin"), ("silent_nan_late_overflow.py", 8, "created"),
        ("silent_nan_late_overflow.py", 19, "backward"), ("silent_nan_late_overflow.py", 20, "step"),
        ("silent_nan_late_overflow.py", 16, "outer")]),
    "silent_nan_masked_row.py": ("nonfinite-gradient", [("silent_nan_masked_row.py", 13, "fix"),
        ("silent_nan_masked_row.py", 14, "origin"), ("silent_nan_masked_row.py", 13, "masked"),
        ("silent_nan_masked_row.py", 15, "created"), ("silent_nan_masked_row.py", 18, "backward"),
        ("silent_nan_masked_row.py", 19, "step")]),
    "silent_nonleaf_grad.py": ("non-leaf-grad-read", [
        ("silent_nonleaf_grad.py", 6, "fix"), ("silent_nonleaf_grad.py", 6, "non-leaf"),
        ("silent_nonleaf_grad.py", 10, "read"), ("silent_nonleaf_grad.py", 9, "affected")]),
    "silent_optimizer_on_old_model.py": ("parameter-not-in-optimizer", [
        ("silent_optimizer_on_old_model.py", 20, "fix"), ("silent_optimizer_on_old_model.py", 19, "fix"),
        ("silent_optimizer_on_old_model.py", 12, "parameter"), ("silent_optimizer_on_old_model.py", 20, "model"),
        ("silent_optimizer_on_old_model.py", 19, "optimizer"), ("silent_optimizer_on_old_model.py", 25, "step"),
        ("silent_optimizer_on_old_model.py", 24, "backward")]),
    "silent_optimizer_on_head_only.py": ("parameter-not-in-optimizer", [
        ("silent_optimizer_on_head_only.py", 20, "fix"), ("silent_optimizer_on_head_only.py", 12, "parameter"),
        ("silent_optimizer_on_head_only.py", 19, "model"), ("silent_optimizer_on_head_only.py", 20, "optimizer"),
        ("silent_optimizer_on_head_only.py", 26, "step"), ("silent_optimizer_on_head_only.py", 25, "backward")]),
    "silent_requires_grad_fix.py": ("requires-grad-on-detached-result", [
        ("silent_requires_grad_fix.py", 8, "fix"), ("silent_requires_grad_fix.py", 9, "requires-grad"),
        ("silent_requires_grad_fix.py", 8, "cut"), ("silent_requires_grad_fix.py", 10, "affected")]),
    "silent_round_zero_gradient.py": ("zero-gradient", [
        ("silent_round_zero_gradient.py", 13, "fix"), ("silent_round_zero_gradient.py", 13, "created"),
        ("silent_round_zero_gradient.py", 10, "defined"), ("silent_round_zero_gradient.py", 24, "step"),
        ("silent_round_zero_gradient.py", 18, "optimizer"), ("silent_round_zero_gradient.py", 23, "backward")]),
    "silent_target_is_online.py": ("target-is-online-network", [
        ("silent_target_is_online.py", 13, "fix"), ("silent_target_is_online.py", 13, "alias"),
        ("silent_target_is_online.py", 19, "target"), ("silent_target_is_online.py", 26, "outer"),
        ("silent_target_is_online.py", 22, "affected")]),
    "silent_total_loss.py": ("graph-kept-alive", [
        ("silent_total_loss.py", 14, "fix"), ("silent_total_loss.py", 11, "created"),
        ("silent_total_loss.py", 14, "kept"), ("silent_total_loss.py", 12, "affected")]),
}

# In-place hazards that raise nothing in this run (no backward follows): `gradscope check` fails them.
HAZARD = {
    "hazard_eval_residual.py": [("hazard_eval_residual.py", 15, "fix"), ("hazard_eval_residual.py", 14, "saved"), ("hazard_eval_residual.py", 15, "modified")],
    "hazard_forward_only_test.py": [("hazard_forward_only_test.py", 8, "fix"), ("hazard_forward_only_test.py", 7, "saved"), ("hazard_forward_only_test.py", 8, "modified")],
}

CLEAN = ["clean_amp_unscale_then_clip.py", "clean_unrolled_learned_update.py", "clean_function_recomputes_in_backward.py", "clean_zero_grad_after_check.py", "clean_training_loop.py", "clean_ddpg_soft_update.py", "clean_gan_shared_update.py", "clean_rnn_detach.py", "clean_gan.py", "seed_leaf_retain_grad_hooks.py",
         "seed_retain_graph_and_grads.py", "seed_no_grad_detach.py", "seed_copyslices_clean.py",
         "clean_cnn_batchnorm.py", "clean_transformer.py", "clean_custom_function.py", "clean_checkpoint.py",
         "clean_double_backward.py", "clean_allow_mutation.py",
         # Real-code regressions (issue 14): each once hung, re-ran user code, erred inside
         # gradscope, raised a false alarm or changed the program's warnings.
         "clean_dirty_view_function.py", "clean_checkpoint_side_effects.py", "clean_forbidden_views.py",
         "clean_dcgan_logging.py", "clean_warnings.py",
         # Issue 29: a graph that no backward goes through after the change is no hazard.
         "clean_unused_output_across_step.py",
         # Issue 16: standard idioms that once raised a false alarm.
         "clean_wgan_gp.py",
         # Issue 29 (fs8's first sight): a frozen stage kept in eval mode beside a stage that trains.
         "clean_frozen_stage_norm_eval.py"]


def test_every_sample_is_covered():
    scripts = {p.name for p in SAMPLES.glob("*.py")}
    flow = {p.name for p in SAMPLES.glob("flow_*.py")}  # tests/e2e/test_grad_flow.py
    assert scripts == set(EXPECTED) | set(SILENT) | set(HAZARD) | set(CLEAN) | flow


def expected_locations(lines):
    return [(str((SAMPLES / f).resolve()), line, role) for f, line, role in lines]


# ---------------------------------------------------------------- what is diagnosed (in-process)
@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_diagnosis_names_the_lines(sample):
    if sample in NEEDS_NUMPY:  # without NumPy, .numpy() fails earlier, with "Numpy is not available"
        pytest.importorskip("numpy")
    rule, lines = EXPECTED[sample]
    run = record(SAMPLES / sample)
    report = run.report()
    assert run.outcome.exit_status == report["exit_status"] == 1
    assert report["internal_errors"] == []
    assert (report["error"]["type"], report["error"]["message"]) == (type(run.outcome.exception).__name__,
                                                                      str(run.outcome.exception))
    assert [f["rule"] for f in report["findings"]] == [rule]
    finding = report["findings"][0]
    assert finding["details"]["uncaught"] is True
    assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == expected_locations(lines)
    for loc in finding["locations"]:
        assert loc["code"], "every named line shows its source"


def test_locations_carry_the_callers():
    """Each backward names the loop line that called the helper: the first call frees the
    graph (line 38), the second, the line to remove, fails (line 39)."""
    run = record(SAMPLES / "reinforce_finish_episode_twice.py")
    stacks = {loc["role"]: [(frame["line"], frame["function"]) for frame in loc["stack"]]
              for loc in run.report()["findings"][0]["locations"]}
    assert stacks == {"fix": [(39, "<module>")], "created": [(19, "act")], "used": [(25, "finish_episode")],
                      "freed": [(38, "<module>"), (27, "finish_episode")],
                      "backward": [(39, "<module>"), (27, "finish_episode")],
                      "outer": [(35, "")]}  # (the call of `act` found in the source: no recorded frames)


@pytest.mark.parametrize("sample", sorted(SILENT))
def test_silent_hazard_is_reported(sample):
    rule, lines = SILENT[sample]
    run = record(SAMPLES / sample)
    report = run.report()
    assert run.outcome.exit_status == 0
    assert report["error"] is None and report["internal_errors"] == []
    assert [(f["rule"], f["severity"]) for f in report["findings"]] == [(rule, "warning")]
    assert [(loc["path"], loc["line"], loc["role"]) for loc in report["findings"][0]["locations"]] == \
        expected_locations(lines)


def test_check_nan_names_the_op():
    """With --check-nan the NaN finding names the forward line whose backward made it."""
    sample = SAMPLES / "silent_nan_distance.py"
    run = record(sample, check_nan=True)
    assert run.stdout == run_python_once(sample).stdout  # the checks change nothing the program prints
    (finding,) = run.findings
    assert finding.rule == "nonfinite-gradient"
    assert [(loc.line, loc.role) for loc in finding.locations] == [(12, "fix"), (12, "created"), (14, "backward"),
                                                                  (15, "step")]
    assert "SqrtBackward0" in finding.explanation and "clamp" in finding.fix


# ---------------------------------------------------------------- one end-to-end run per sample
@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_failing_sample_runs_like_python(sample, gradscope_run):
    """`gradscope run` ends as `python` does, prints Python's traceback first, then the finding."""
    if sample in NEEDS_NUMPY:
        pytest.importorskip("numpy")
    rule, _ = EXPECTED[sample]
    result = gradscope_run(SAMPLES / sample)
    plain = run_python_once(SAMPLES / sample)

    assert result.returncode == plain.returncode == 1
    assert result.stdout == plain.stdout
    report = result.report
    assert report["schema"] == 1 and report["exit_status"] == 1
    assert report["internal_errors"] == []
    # Python's last traceback line, or lines for a message of several (a CheckpointError's)
    message = report["error"]["message"]
    assert plain.stderr.rstrip().endswith(message.rstrip())
    error_line = plain.stderr.rstrip()[:-len(message.rstrip())].splitlines()[-1]
    assert error_line.rstrip(": ").rsplit(".", 1)[-1] == report["error"]["type"]
    assert [f["rule"] for f in report["findings"]] == [rule]
    # The human report follows Python's own traceback on stderr.
    assert result.stderr.startswith(plain.stderr)
    assert report["findings"][0]["title"] in result.stderr


@pytest.mark.parametrize("sample", sorted(SILENT))
def test_silent_sample_runs_like_python(sample, gradscope_run):
    rule, _ = SILENT[sample]
    result = gradscope_run(SAMPLES / sample)
    plain = run_python_once(SAMPLES / sample)
    assert result.returncode == plain.returncode == 0
    assert result.stdout == plain.stdout
    assert result.stderr.startswith(plain.stderr)
    report = result.report
    assert report["error"] is None and report["internal_errors"] == []
    assert [(f["rule"], f["severity"]) for f in report["findings"]] == [(rule, "warning")]


@pytest.mark.parametrize("sample", sorted(HAZARD))
def test_check_fails_on_hazard_that_did_not_raise(sample, tmp_path):
    report = tmp_path / "report.json"
    result = run_gradscope("check", "--format", "json", "-o", str(report), str(SAMPLES / sample))
    plain = run_python_once(SAMPLES / sample)
    assert plain.returncode == 0 and result.returncode == 1
    assert result.stdout == plain.stdout and result.stderr.startswith(plain.stderr)
    data = json.loads(report.read_text())
    assert data["error"] is None and data["internal_errors"] == []
    assert [(f["rule"], f["severity"]) for f in data["findings"]] == [("inplace-hazard", "error")]
    expected = expected_locations(HAZARD[sample])
    assert [(loc["path"], loc["line"], loc["role"]) for loc in data["findings"][0]["locations"]] == expected
    assert data["check"]["exit_code"] == 1 and data["check"]["failing"] == 1
    # `gradscope run` names the same lines, and exits as the program does (recorded in-process:
    # the same recording and diagnosis `gradscope run` makes).
    ran = record(SAMPLES / sample)
    assert ran.outcome.exit_status == 0 and ran.stdout == plain.stdout
    assert [(loc["path"], loc["line"], loc["role"]) for loc in ran.report()["findings"][0]["locations"]] == expected


@pytest.mark.parametrize("sample", CLEAN)
def test_clean_sample_has_no_findings(sample, tmp_path):
    """`gradscope check` passes every clean sample, and the program runs exactly as under Python."""
    report = tmp_path / "report.json"
    result = run_gradscope("check", "--format", "json", "-o", str(report), str(SAMPLES / sample))
    plain = run_python_once(SAMPLES / sample)
    assert result.returncode == plain.returncode == 0
    assert result.stdout == plain.stdout
    assert result.stderr == plain.stderr + "gradscope check: 0 errors, 0 warnings: passed\n"
    data = json.loads(report.read_text())
    assert data["findings"] == [] and data["internal_errors"] == []
    assert data["error"] is None
